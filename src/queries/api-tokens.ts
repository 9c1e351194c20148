import { mutationOptions, queryOptions } from '@tanstack/react-query';
import {
  createApiToken,
  deleteApiToken,
  listApiTokens,
  revokeAllApiTokens,
  type ListApiTokensQuery,
} from '../api/api-tokens';

export const apiTokenKeys = {
  all: ['apiTokens'] as const,
  lists: () => [...apiTokenKeys.all, 'list'] as const,
  list: (query: ListApiTokensQuery) => [...apiTokenKeys.lists(), query] as const,
};

export const apiTokenQueries = {
  list: (query: ListApiTokensQuery) =>
    queryOptions({ queryKey: apiTokenKeys.list(query), queryFn: () => listApiTokens(query) }),
};

// A user's tokens may be listed twice (their own list, an Admin's company-wide one): every change
// makes all the lists stale.
export const apiTokenMutations = {
  // The answer holds the secret: forgotten as soon as nothing shows it.
  create: () =>
    mutationOptions({
      mutationFn: createApiToken,
      gcTime: 0,
      meta: { invalidates: [apiTokenKeys.lists()] },
    }),
  delete: () =>
    mutationOptions({ mutationFn: deleteApiToken, meta: { invalidates: [apiTokenKeys.lists()] } }),
  revokeAll: () =>
    mutationOptions({
      mutationFn: revokeAllApiTokens,
      meta: { invalidates: [apiTokenKeys.lists()] },
    }),
};
