import type { UserTeamsQuery } from '../../../../api/contract/users';

// Apart from the memberships table so that the user route's loader does not pull the table.

export const MEMBERSHIPS_PER_PAGE = 6;

export const membershipsQuery = (params: { page: number; search: string }): UserTeamsQuery => ({
  page: params.page,
  rowsPerPage: MEMBERSHIPS_PER_PAGE,
  search: params.search.trim(),
});
