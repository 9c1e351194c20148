import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ListUsersQuery } from '../api/contract/users';
import { listUsers } from '../api/users';

export const userKeys = {
  all: ['users'] as const,
  lists: () => [...userKeys.all, 'list'] as const,
  list: (query: ListUsersQuery) => [...userKeys.lists(), query] as const,
};

export const userQueries = {
  list: (query: ListUsersQuery) =>
    queryOptions({
      queryKey: userKeys.list(query),
      queryFn: () => listUsers(query),
      placeholderData: keepPreviousData,
    }),
};
