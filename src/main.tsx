// First: it sends the session check, then lets a turn of the event loop pass. The build keeps the
// modules in the order they are imported, so the ones below are evaluated in a later task.
import { queryClient } from './first-task';
import { ReactQueryDevtools } from '@tanstack/react-query-devtools';
import { RouterProvider } from '@tanstack/react-router';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Providers } from './providers';
import { nextTask } from './components/next-task';
import { createAppRouter } from './router';

// And another between evaluating the screens' modules and building the router.
await nextTask();
const router = createAppRouter(queryClient);

const root = document.getElementById('root')!;
// `/login` arrives with its screen drawn (scripts/build/login-page.ts). The router settles first,
// so that React's first commit puts the live screen in its place: no blank moment in between.
// A failure is the router's to show once drawn, as without the drawn screen.
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
