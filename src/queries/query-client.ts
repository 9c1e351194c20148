import { MutationCache, QueryCache, QueryClient, type QueryKey } from '@tanstack/react-query';
import { ApiError } from '../api/client';

declare module '@tanstack/react-query' {
  interface Register {
    defaultError: Error;
    mutationMeta: {
      /** Query-key prefixes a successful mutation makes stale. */
      invalidates?: QueryKey[];
    };
  }
}

export function createQueryClient() {
  const queryClient: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      // A first load that fails shows in its screen; a failed background refresh of data already
      // on screen would otherwise go unnoticed. The toast's code is imported when needed: the
      // client is made by the console's first file, before the toasts' library has arrived.
      onError: (error, query) => {
        if (
          query.state.data !== undefined &&
          !(error instanceof ApiError && error.status === 401)
        ) {
          void import('../components/notify').then(({ notify }) =>
            notify(error.message, { type: 'error' }),
          );
        }
      },
    }),
    mutationCache: new MutationCache({
      onSuccess: async (_data, _variables, _context, mutation) => {
        const keys = mutation.meta?.invalidates ?? [];
        await Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        refetchOnWindowFocus: false,
        // A 4xx will answer the same again; only a lost connection or a 5xx is worth one retry.
        retry: (failureCount, error) =>
          failureCount < 1 &&
          (!(error instanceof ApiError) || error.status === 0 || error.status >= 500),
      },
    },
  });
  return queryClient;
}
