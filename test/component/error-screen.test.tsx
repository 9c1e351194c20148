import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
} from '@tanstack/react-router';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Providers } from '../../src/providers';
import { createQueryClient } from '../../src/queries/query-client';
import { Route as appRoot } from '../../src/routes/__root';
import { api, http, HttpResponse, server } from './support/msw';

/**
 * The console's error screen as the router shows it: the app's own root error component, over a
 * screen that throws while drawing and a stand-in dashboard (the real one's data is not the point).
 */
const thrown = new Error('The VM list could not be drawn');
let restoreConsole = () => {};

async function renderBrokenScreen() {
  const root = createRootRoute({
    component: Outlet,
    errorComponent: appRoot.options.errorComponent,
  });
  const dashboard = createRoute({
    getParentRoute: () => root,
    path: '/',
    component: () => <h2>Dashboard</h2>,
  });
  const broken = createRoute({
    getParentRoute: () => root,
    path: '/broken',
    component: () => {
      throw thrown;
    },
  });
  const router = createRouter({
    routeTree: root.addChildren([dashboard, broken]),
    history: createMemoryHistory({ initialEntries: ['/broken'] }),
  });
  // The screen reports what it shows.
  server.use(http.post(api('logging'), () => HttpResponse.json({ data: null, message: 'OK' })));
  // React and the router say on the console that they caught this error: expected here, and
  // only this one.
  const failOnConsole = vi.mocked(console.error).getMockImplementation();
  vi.mocked(console.error).mockImplementation((...args: unknown[]) => {
    if (!args.some((arg) => arg === thrown || String(arg).includes(thrown.message)))
      failOnConsole?.(...args);
  });
  restoreConsole = () => vi.mocked(console.error).mockImplementation(failOnConsole!);
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  const user = userEvent.setup();
  render(
    <Providers queryClient={createQueryClient()}>
      <RouterProvider router={router as never} />
    </Providers>,
  );
  await act(() => router.load());
  return { router, user };
}

afterEach(() => {
  restoreConsole();
  vi.unstubAllGlobals();
  vi.mocked(console.warn).mockRestore();
});

describe('the error screen', () => {
  it('keeps the heading, the message and the stack, and reloads the page with Reload', async () => {
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, href: window.location.href, reload });
    const { user } = await renderBrokenScreen();

    expect(
      await screen.findByRole('heading', { name: 'Unexpected Application Error!' }),
    ).toBeInTheDocument();
    expect(screen.getByText('The VM list could not be drawn')).toBeInTheDocument();
    expect(screen.getByText(/at .*error-screen\.test\.tsx/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Reload' }));
    expect(reload).toHaveBeenCalledOnce();
  });

  it('goes to the dashboard with Go to Dashboard', async () => {
    const { router, user } = await renderBrokenScreen();
    await screen.findByRole('heading', { name: 'Unexpected Application Error!' });

    await user.click(screen.getByRole('link', { name: 'Go to Dashboard' }));

    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(screen.queryByText('Unexpected Application Error!')).not.toBeInTheDocument();
  });
});
