import { keepPreviousData, mutationOptions, queryOptions } from '@tanstack/react-query';
import type { ListUsersQuery, UserTeamsQuery } from '../api/contract/users';
import {
  createUser,
  deleteUser,
  editUser,
  getUserDetails,
  listUsers,
  listUserTeams,
} from '../api/users';

export const userKeys = {
  all: ['users'] as const,
  lists: () => [...userKeys.all, 'list'] as const,
  list: (query: ListUsersQuery) => [...userKeys.lists(), query] as const,
  details: () => [...userKeys.all, 'detail'] as const,
  detail: (id: number) => [...userKeys.details(), id] as const,
  teams: (id: number) => [...userKeys.all, 'teams', id] as const,
  teamsPage: (id: number, query: UserTeamsQuery) => [...userKeys.teams(id), query] as const,
};

export const userQueries = {
  list: (query: ListUsersQuery) =>
    queryOptions({
      queryKey: userKeys.list(query),
      queryFn: () => listUsers(query),
      placeholderData: keepPreviousData,
    }),
  detail: (id: number) =>
    queryOptions({ queryKey: userKeys.detail(id), queryFn: () => getUserDetails(id) }),
  teams: (id: number, query: UserTeamsQuery) =>
    queryOptions({
      queryKey: userKeys.teamsPage(id, query),
      queryFn: () => listUserTeams(id, query),
      placeholderData: keepPreviousData,
    }),
};

// Users appear in team counts, member lists and team permissions, so user changes make those
// stale too (the keys are spelled out to avoid an import cycle with the teams module).
export const userMutations = {
  create: () =>
    mutationOptions({
      mutationFn: createUser,
      meta: { invalidates: [userKeys.all, ['teams'], ['permissions']] },
    }),
  edit: () =>
    mutationOptions({
      mutationFn: editUser,
      meta: { invalidates: [userKeys.all, ['teams'], ['auth']] },
    }),
  delete: () =>
    mutationOptions({
      mutationFn: deleteUser,
      meta: { invalidates: [userKeys.all, ['teams'], ['permissions']] },
    }),
};
