import { RouterProvider, createMemoryHistory, createRouter } from '@tanstack/react-router';
import { act, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Providers } from '../../../src/providers';
import { createQueryClient } from '../../../src/queries/query-client';
import { createAppRouter } from '../../../src/router';
import { routeTree } from '../../../src/routeTree.gen';

/**
 * Renders the whole console at `path` with the real router, query client and providers; only the
 * network is fake (msw). Returns the router so tests can read where the user ended up.
 */
export async function renderApp(path: string) {
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({
    ...queryClient.getDefaultOptions(),
    queries: { ...queryClient.getDefaultOptions().queries, retry: false },
  });
  const history = createMemoryHistory({ initialEntries: [path] });
  const router = createAppRouter(queryClient, history);
  await loadEveryScreen();
  const user = userEvent.setup();
  const view = render(
    <Providers queryClient={queryClient}>
      <RouterProvider router={router} />
    </Providers>,
  );
  // Inside act: the signed-in layout draws its screen in a second, deferred render.
  await act(() => router.load());
  return { ...view, router, queryClient, user };
}

let everyScreen: Promise<unknown> | undefined;

/**
 * The build puts each screen's component and loader in a file of its own (vite.config.ts), loaded
 * on first use; the tests run that same module graph. Loaded once up front, by setup.ts before a
 * file's first test (that test's time is then its own), as the toast outlet is: a link preloaded
 * at the end of one test then sends its requests in that test, not after it while the next one
 * runs.
 */
export function loadEveryScreen() {
  if (!everyScreen) {
    // Not the app's router: only its routes are needed, not its 401 handler.
    const router = createRouter({
      routeTree,
      history: createMemoryHistory(),
      context: { queryClient: createQueryClient() },
    });
    everyScreen = Promise.all(
      Object.values(router.routesById).map((route) => router.loadRouteChunk(route)),
    );
  }
  return everyScreen;
}

/** The current path and search, as the address bar would show it. */
export const locationOf = (router: Awaited<ReturnType<typeof renderApp>>['router']) =>
  router.state.location.href;
