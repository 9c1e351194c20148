import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { aUser } from './support/fixtures';
import { api, fail, http, ok, server } from './support/msw';
import { renderApp } from './support/render';
import { gate, signIn } from './support/teams-fixtures';

let close: ReturnType<typeof vi.fn<() => void>>;
beforeEach(() => {
  close = vi.fn<() => void>();
  vi.spyOn(window, 'close').mockImplementation(close);
});
afterEach(() => vi.restoreAllMocks());

function serveConsole(answer: () => Response) {
  const held = gate();
  const ids: unknown[] = [];
  server.use(
    http.get(api('virtualMachines/getConsole/:id'), async ({ params }) => {
      ids.push(params.id);
      await held.wait();
      return answer();
    }),
  );
  return { ids, hold: held.hold };
}

describe('VM console', { timeout: 15_000 }, () => {
  it('loads the console address into a full-window frame, without the app shell', async () => {
    signIn();
    const consoleApi = serveConsole(() =>
      ok({ consoleUrl: 'https://console.example.com/vnc?t=1' }),
    );
    const release = consoleApi.hold();
    await renderApp('/virtualMachineConsole/12');
    expect(await screen.findByText('Loading console...')).toBeInTheDocument();
    // The console fills its tab: no sidebar.
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
    release();

    const frame = await screen.findByTitle('Virtual machine console');
    expect(frame).toHaveAttribute('src', 'https://console.example.com/vnc?t=1');
    expect(consoleApi.ids).toEqual(['12']);
    expect(screen.getByText('Loading console...')).toBeInTheDocument();
    fireEvent.load(frame);
    await waitFor(() => expect(screen.queryByText('Loading console...')).not.toBeInTheDocument());

    fireEvent.click(screen.getByRole('button', { name: 'Close console' }));
    expect(close).toHaveBeenCalledTimes(1);
  });

  it('says the console failed to load when its address cannot be fetched, and offers Close', async () => {
    signIn();
    serveConsole(() => fail(409, 'The console is available only while the VM is running'));
    const { user } = await renderApp('/virtualMachineConsole/12');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load console. Please try again.');
    expect(alert).toHaveTextContent(
      'Failed to fetch console URL: The console is available only while the VM is running',
    );
    expect(screen.queryByTitle('Virtual machine console')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(close).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['blank', { consoleUrl: '   ' }],
    ['not a string', { consoleUrl: 42 }],
    ['not a web address', { consoleUrl: 'javascript:alert(1)' }],
  ])('refuses a console address that is %s', async (_case, data) => {
    signIn();
    serveConsole(() => ok(data));
    await renderApp('/virtualMachineConsole/12');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load console. Please try again.');
    expect(alert).toHaveTextContent('Invalid console URL');
    expect(screen.queryByTitle('Virtual machine console')).not.toBeInTheDocument();
  });

  it('closes the window when the id is not a number', async () => {
    signIn();
    const consoleApi = serveConsole(() => ok({ consoleUrl: 'https://console.example.com' }));
    await renderApp('/virtualMachineConsole/abc');
    await waitFor(() => expect(close).toHaveBeenCalledTimes(1));
    expect(consoleApi.ids).toEqual([]);
  });

  it('checks the session first: without one it goes to /login', async () => {
    server.use(http.get(api('auth/check'), () => fail(401, 'Not authenticated')));
    const consoleApi = serveConsole(() => ok({ consoleUrl: 'https://console.example.com' }));
    sessionStorage.setItem('session', JSON.stringify({ user: aUser() }));
    const { router } = await renderApp('/virtualMachineConsole/12');
    expect(router.state.location.pathname).toBe('/login');
    expect(consoleApi.ids).toEqual([]);
  });
});
