import type { TeamDetailsQuery } from '../../../../api/contract/teams';

/** Team member tables show 5 a page (spec section 9). */
export const MEMBERS_PER_PAGE = 5;

/** The first page of a team's members: what the wizard reads the team's name from. */
export const FIRST_MEMBERS_PAGE: TeamDetailsQuery = {
  page: 1,
  rowsPerPage: MEMBERS_PER_PAGE,
  search: '',
};
