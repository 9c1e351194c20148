import { ReactQueryDevtools } from '@tanstack/react-query-devtools';
import type { QueryClient } from '@tanstack/react-query';
import { RouterProvider, type AnyRouter } from '@tanstack/react-router';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { sessionStore } from '../api/session-store';
import { Providers } from '../providers';
import { createAppRouter } from '../router';

/**
 * Builds the router and draws the first screen. `/login` arrives with its screen drawn
 * (scripts/build/login-page.ts): the router settles first, so that React's first commit puts the
 * live screen in its place, with no blank moment in between. A failure is the router's to show
 * once drawn, as without the drawn screen.
 */
export async function startConsole(queryClient: QueryClient, root: HTMLElement) {
  const router = createAppRouter(queryClient);
  // In a task of its own: matching the address validates its search, a first use of the schemas.
  setTimeout(() => warmFirstScreen(router), 0);
  if (root.hasChildNodes()) await router.load().catch(() => undefined);
  // As a transition, React draws the first screen in slices with the browser's other work between
  // them, rather than in one task that holds a phone's main thread.
  startTransition(() =>
    createRoot(root).render(
      <StrictMode>
        <Providers queryClient={queryClient}>
          <RouterProvider router={router} />
          {import.meta.env.DEV && <ReactQueryDevtools buttonPosition="bottom-right" />}
        </Providers>
      </StrictMode>,
    ),
  );
}

/**
 * With a stored session, the first screen's code downloads while the session is checked rather
 * than after it: on a phone's network that is a round trip and the shared chunk saved.
 */
function warmFirstScreen(router: AnyRouter) {
  if (!sessionStore.get()) return;
  for (const match of router.matchRoutes(router.latestLocation)) {
    void router.loadRouteChunk(router.routesById[match.routeId])?.catch(() => undefined);
  }
}
