import type { QueryClient } from '@tanstack/react-query';
import { createRouter, type RouterHistory } from '@tanstack/react-router';
import { basePath } from './api/base-path';
import { onUnauthorized } from './api/client';
import type { User } from './api/contract/auth';
import type { SecondStep } from './api/contract/second-factor';
import { sessionStore } from './api/session-store';
import { authKeys } from './queries/auth';
import { routeTree } from './routeTree.gen';

export interface RouterContext {
  queryClient: QueryClient;
}

export function createAppRouter(queryClient: QueryClient, history?: RouterHistory) {
  const router = createRouter({
    routeTree,
    history,
    basepath: basePath,
    context: { queryClient },
    defaultPreload: 'intent',
    // Loaders read through React Query, which owns freshness.
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
  });
  // 401 anywhere: the session is gone; forget it and go to the login screen.
  onUnauthorized(() => {
    sessionStore.clear();
    queryClient.removeQueries({ queryKey: authKeys.all });
    if (router.state.location.pathname !== '/login') void router.navigate({ to: '/login' });
  });
  return router;
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}

/** What one screen hands the next through navigation state (login → one-time code → reset). */
declare module '@tanstack/history' {
  interface HistoryState {
    email?: string;
    resellerEmail?: string;
    user?: User;
    /** The login's answer: which second step the one-time code page asks for. */
    secondStep?: SecondStep;
  }
}
