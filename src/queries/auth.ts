import { queryOptions } from '@tanstack/react-query';
import { checkAuth } from '../api/auth';

export const authKeys = {
  all: ['auth'] as const,
  check: () => [...authKeys.all, 'check'] as const,
};

/**
 * The console's authentication context: the signed-in user and, by its success, `authed`.
 * The protected layout ensures it before anything else loads.
 */
export const authQueries = {
  check: () =>
    queryOptions({
      queryKey: authKeys.check(),
      queryFn: checkAuth,
      staleTime: 60_000,
      retry: false,
    }),
};
