import { MantineProvider } from '@mantine/core';
import {
  RouterProvider,
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
} from '@tanstack/react-router';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { PageHeader } from '../../src/components/page-header';
import { theme } from '../../src/theme';

/** PageHeader needs a router (its back arrow goes back in history): a two-page one. */
async function renderWithRouter(header: ReactNode) {
  const root = createRootRoute();
  const router = createRouter({
    routeTree: root.addChildren([
      createRoute({ getParentRoute: () => root, path: '/', component: () => <p>Start</p> }),
      createRoute({ getParentRoute: () => root, path: '/page', component: () => header }),
    ]),
    history: createMemoryHistory({ initialEntries: ['/', '/page'] }),
  });
  render(
    <MantineProvider theme={theme}>
      <RouterProvider router={router} />
    </MantineProvider>,
  );
  await act(() => router.load());
  return router;
}

describe('PageHeader', () => {
  it('shows the title, the secondary title and the primary action', async () => {
    const onClick = vi.fn();
    await renderWithRouter(
      <PageHeader
        title="Teams"
        secondaryTitle="3 teams"
        action={{ name: 'Create Team', onClick }}
      />,
    );
    expect(screen.getByRole('heading', { level: 2, name: 'Teams' })).toBeInTheDocument();
    expect(screen.getByText('3 teams')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Go back' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Create Team' }));
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  it('calls the given onBack', async () => {
    const onBack = vi.fn();
    await renderWithRouter(<PageHeader title="Team" onBack={onBack} />);
    await userEvent.click(screen.getByRole('button', { name: 'Go back' }));
    expect(onBack).toHaveBeenCalledTimes(1);
  });

  it('goes back in history without onBack', async () => {
    const router = await renderWithRouter(<PageHeader title="Team" withBack />);
    await userEvent.click(screen.getByRole('button', { name: 'Go back' }));
    expect(await screen.findByText('Start')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });
});
