import type { ListApiTokensQuery } from '../../../../api/api-tokens';

// Apart from the section so that the user route's loader does not pull the table.

/** Who sees a user's tokens on their page: the user, and the company's Admins. */
export const canSeeApiTokens = (me: { id: number; isAdmin: boolean }, userId: number) =>
  me.id === userId || me.isAdmin;

/** The own list names nobody (the caller's own); an Admin's view of another user names them. */
export const apiTokensQuery = (userId: number, own: boolean): ListApiTokensQuery =>
  own ? {} : { userId };

/** The company's tokens, everyone's (Admins only). */
export const COMPANY_API_TOKENS: ListApiTokensQuery = { all: true };
