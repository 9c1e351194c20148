import type { ListTeamsQuery } from '../api/contract/teams';

// Apart from the table so that the routes' loaders, which prefetch with it, do not pull the table.

export const TEAMS_PER_PAGE = 10;

/** The list state a screen keeps in its URL. */
export interface TeamsTableState {
  page: number;
  search: string;
}

export const teamsListQuery = ({ page, search }: TeamsTableState): ListTeamsQuery => ({
  page,
  rowsPerPage: TEAMS_PER_PAGE,
  search: search.trim(),
});
