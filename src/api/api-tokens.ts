import {
  createApiTokenResponse,
  deleteApiTokenResponse,
  listApiTokensResponse,
  revokeAllApiTokensResponse,
  type CreateApiTokenBody,
} from './contract/api-tokens';
import { request } from './client';

/**
 * Whose tokens (`listApiTokensQuery` as sent): none named is the caller's own; an Admin may name a
 * user of the company or ask for all of the company's.
 */
export interface ListApiTokensQuery {
  userId?: number;
  all?: boolean;
}

export const listApiTokens = (query: ListApiTokensQuery) =>
  request('get', 'apiTokens/list', listApiTokensResponse, { searchParams: { ...query } }).then(
    (r) => r.data,
  );

/** Answers the token and its secret: the only time the secret is ever sent. */
export const createApiToken = (body: CreateApiTokenBody) =>
  request('post', 'apiTokens/create', createApiTokenResponse, { json: body }).then((r) => r.data);

export const deleteApiToken = (id: number) =>
  request('delete', `apiTokens/delete/${id}`, deleteApiTokenResponse);

/** Revokes every token of a user: the caller's own when no user is named. */
export const revokeAllApiTokens = (body: { userId?: number }) =>
  request('post', 'apiTokens/revokeAll', revokeAllApiTokensResponse, { json: body });
