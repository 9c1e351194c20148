import { ReactQueryDevtools } from '@tanstack/react-query-devtools';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { apiBase } from './api/base-path';
import { installErrorReporter } from './api/error-reporter';
import { nextTask } from './components/next-task';
import { Providers } from './providers';
import { authQueries } from './queries/auth';
import { createQueryClient } from './queries/query-client';
import { createAppRouter } from './router';

// First, so that errors of the start-up itself are reported too.
installErrorReporter(`${apiBase}logging`);

const queryClient = createQueryClient();
// Every screen starts with the session check (the sign-in screen's and the protected layout's):
// asked now, it travels while the router and the screens' code load.
void queryClient.prefetchQuery(authQueries.check());
// A turn of the event loop between loading the libraries and building the router and first screen:
// two shorter tasks instead of one long one on a slow phone's main thread.
await nextTask();
const router = createAppRouter(queryClient);

const root = document.getElementById('root')!;
// `/login` arrives with its screen drawn (scripts/build/login-page.ts). The router settles first,
// so that React's first commit puts the live screen in its place: no blank moment in between.
// A failure is the router's to show once drawn, as without the drawn screen.
if (root.hasChildNodes()) await router.load().catch(() => undefined);

createRoot(root).render(
  <StrictMode>
    <Providers queryClient={queryClient}>
      <RouterProvider router={router} />
      {import.meta.env.DEV && <ReactQueryDevtools buttonPosition="bottom-right" />}
    </Providers>
  </StrictMode>,
);
