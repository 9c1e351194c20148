import { keepPreviousData, mutationOptions, queryOptions } from '@tanstack/react-query';
import type { ListTeamsQuery, TeamDetailsQuery } from '../api/contract/teams';
import {
  addTeamUser,
  createTeam,
  deleteTeam,
  getTeam,
  listTeams,
  removeTeamUser,
  updateTeam,
} from '../api/teams';
import { permissionKeys } from './permissions';
import { userKeys } from './users';

export const teamKeys = {
  all: ['teams'] as const,
  lists: () => [...teamKeys.all, 'list'] as const,
  list: (query: ListTeamsQuery) => [...teamKeys.lists(), query] as const,
  details: () => [...teamKeys.all, 'detail'] as const,
  detail: (id: number) => [...teamKeys.details(), id] as const,
  detailPage: (id: number, query: TeamDetailsQuery) => [...teamKeys.detail(id), query] as const,
};

/** All of the company's teams fit one request (the API's largest page): for team pickers. */
export const ALL_TEAMS: ListTeamsQuery = { page: 1, rowsPerPage: 100, search: '' };

export const teamQueries = {
  list: (query: ListTeamsQuery) =>
    queryOptions({
      queryKey: teamKeys.list(query),
      queryFn: () => listTeams(query),
      placeholderData: keepPreviousData,
    }),
  detail: (id: number, query: TeamDetailsQuery) =>
    queryOptions({
      queryKey: teamKeys.detailPage(id, query),
      queryFn: () => getTeam(id, query),
      placeholderData: keepPreviousData,
    }),
};

/** Membership and role changes move counts and rows in the team, user and permission lists. */
const membershipChanged = [teamKeys.all, userKeys.all, permissionKeys.all];

export const teamMutations = {
  create: () =>
    mutationOptions({ mutationFn: createTeam, meta: { invalidates: [teamKeys.lists()] } }),
  // Team names also show in each user's memberships.
  update: () =>
    mutationOptions({
      mutationFn: updateTeam,
      meta: { invalidates: [teamKeys.all, userKeys.all] },
    }),
  addUser: () =>
    mutationOptions({ mutationFn: addTeamUser, meta: { invalidates: membershipChanged } }),
  removeUser: () =>
    mutationOptions({ mutationFn: removeTeamUser, meta: { invalidates: membershipChanged } }),
  delete: () =>
    mutationOptions({ mutationFn: deleteTeam, meta: { invalidates: membershipChanged } }),
};
