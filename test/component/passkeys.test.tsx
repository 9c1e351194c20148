import { notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import type * as WebAuthnBrowserModule from '@simplewebauthn/browser';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatDate } from '../../src/components/date-format';
import { sessionStore } from '../../src/api/session-store';
import { aUser } from './support/fixtures';
import { serveDashboard } from './support/dashboard-fixtures';
import { noVerifiedSession, storeSession } from './support/identity-helpers';
import { api, fail, http, HttpResponse, ok, server } from './support/msw';
import { renderApp } from './support/render';
import { aSecondFactorStatus, serveSecondFactorStatus } from './support/second-factor-fixtures';
import { aUserDetails, serveUserPage } from './support/users-fixtures';
import { typeText } from './support/typing';

type WebAuthnBrowser = typeof WebAuthnBrowserModule;

// The browser's WebAuthn calls: jsdom has none; what the device answers is the test's.
const browser = vi.hoisted(() => ({
  startRegistration: vi.fn(),
  startAuthentication: vi.fn(),
}));
vi.mock('@simplewebauthn/browser', async (original) => ({
  ...(await original<WebAuthnBrowser>()),
  ...browser,
}));

const REGISTRATION = {
  id: 'cred-1',
  rawId: 'cred-1',
  type: 'public-key',
  response: { clientDataJSON: 'Y2Q', attestationObject: 'YW8', transports: ['internal'] },
  clientExtensionResults: { credProps: { rk: true } },
};
const ASSERTION = {
  id: 'cred-1',
  rawId: 'cred-1',
  type: 'public-key',
  response: {
    clientDataJSON: 'Y2Q',
    authenticatorData: 'YWQ',
    signature: 'c2ln',
    userHandle: 'dQ',
  },
  clientExtensionResults: {},
};
const cancelled = () =>
  Object.assign(new Error('The operation either timed out or was not allowed.'), {
    name: 'NotAllowedError',
  });

// The buttons load the browser's side when pressed: loaded once here, so that no test waits on it.
beforeAll(() => import('../../src/api/passkey-ceremonies'));

beforeEach(() => {
  browser.startRegistration.mockReset();
  browser.startAuthentication.mockReset();
  // A browser that has WebAuthn.
  vi.stubGlobal('PublicKeyCredential', class {});
  serveDashboard();
});
// Not returned: an awaited act() keeps its scope open into the next test's first steps.
afterEach(() => {
  vi.unstubAllGlobals();
  act(() => notifications.clean());
});

const aPasskey = (id: number, overrides: Record<string, unknown> = {}) => ({
  id,
  name: `Key ${id}`,
  discoverable: true,
  createdAt: '2026-10-01T09:00:00.000Z',
  lastUsedAt: null as string | null,
  ...overrides,
});

/** A fake of the passkey routes over the signed-in user's passkeys, recording what is sent. */
function servePasskeys(rows: ReturnType<typeof aPasskey>[]) {
  let store = rows.map((row) => ({ ...row }));
  const sent = {
    creates: [] as { name: string; credential: unknown }[],
    renames: [] as { id: number; name: string }[],
    deletes: [] as number[],
  };
  server.use(
    http.get(api('auth/passkeys/list'), () => ok(store)),
    http.post(api('auth/passkeys/createOptions'), () =>
      ok({ challenge: 'reg-challenge', rp: { id: 'localhost', name: 'Launchpad' } }),
    ),
    http.post(api('auth/passkeys/create'), async ({ request }) => {
      const body = (await request.json()) as { name: string; credential: unknown };
      sent.creates.push(body);
      const made = aPasskey(100 + sent.creates.length, {
        name: body.name,
        createdAt: new Date().toISOString(),
      });
      store = [made, ...store];
      return ok(made, 'Passkey added');
    }),
    http.put(api('auth/passkeys/rename/:id'), async ({ request, params }) => {
      const { name } = (await request.json()) as { name: string };
      sent.renames.push({ id: Number(params.id), name });
      store = store.map((row) => (row.id === Number(params.id) ? { ...row, name } : row));
      return ok(
        store.find((row) => row.id === Number(params.id)),
        'Passkey renamed',
      );
    }),
    http.delete(api('auth/passkeys/delete/:id'), ({ params }) => {
      sent.deletes.push(Number(params.id));
      store = store.filter((row) => row.id !== Number(params.id));
      return ok(null, 'Passkey removed');
    }),
  );
  return { sent };
}

async function openProfile(rows: ReturnType<typeof aPasskey>[]) {
  serveUserPage({ users: [aUserDetails({ id: 7, firstName: 'Ada', lastName: 'Lovelace' })] });
  const { sent } = servePasskeys(rows);
  const view = await renderApp('/user?id=7');
  await screen.findByRole('heading', { level: 2, name: 'Ada Lovelace' });
  await waitFor(() =>
    expect(screen.getByRole('table', { name: 'Passkeys and security keys' })).toBeInTheDocument(),
  );
  return { ...view, sent };
}

const table = () => screen.getByRole('table', { name: 'Passkeys and security keys' });
const rowOf = (name: string) => within(table()).getByText(name).closest('tr')!;

// Typing in dialogs takes a while on a busy machine.
describe('Profile → Security → Passkeys', { timeout: 15_000 }, () => {
  it('lists the passkeys and security keys: name, kind, added, last used', async () => {
    await openProfile([
      aPasskey(1, { name: 'Work laptop', lastUsedAt: '2026-11-20T08:30:00.000Z' }),
      aPasskey(2, { name: 'Blue YubiKey', discoverable: false }),
    ]);
    await waitFor(() => expect(within(table()).getAllByRole('row')).toHaveLength(3));
    const laptop = within(rowOf('Work laptop'));
    expect(laptop.getByText('Passkey')).toBeInTheDocument();
    expect(laptop.getByText(formatDate(new Date('2026-10-01T09:00:00.000Z')))).toBeInTheDocument();
    const key = within(rowOf('Blue YubiKey'));
    expect(key.getByText('Security key')).toBeInTheDocument();
    expect(key.getByText('Never')).toBeInTheDocument();
    expect(key.getByRole('button', { name: 'Rename Blue YubiKey' })).toBeInTheDocument();
    expect(key.getByRole('button', { name: 'Remove Blue YubiKey' })).toBeInTheDocument();
  });

  it('adds one: names it, lets the browser make it, sends both, and lists it', async () => {
    browser.startRegistration.mockResolvedValue(REGISTRATION);
    const { user, sent } = await openProfile([]);
    expect(within(table()).getByText('No passkeys or security keys yet.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Add passkey' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a passkey or security key' });
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(await within(dialog).findByText('Passkey name cannot be empty')).toBeInTheDocument();
    expect(browser.startRegistration).not.toHaveBeenCalled();
    await typeText(user, within(dialog).getByRole('textbox', { name: 'Name' }), ' Work laptop ');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));

    expect(await screen.findByText('Passkey added')).toBeInTheDocument();
    expect(browser.startRegistration).toHaveBeenCalledWith({
      optionsJSON: { challenge: 'reg-challenge', rp: { id: 'localhost', name: 'Launchpad' } },
    });
    expect(sent.creates).toEqual([{ name: 'Work laptop', credential: REGISTRATION }]);
    await waitFor(() => expect(within(table()).getByText('Work laptop')).toBeInTheDocument());
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('keeps the dialog and the name when the browser is cancelled, saying so', async () => {
    browser.startRegistration.mockRejectedValue(cancelled());
    const { user, sent } = await openProfile([]);
    await user.click(screen.getByRole('button', { name: 'Add passkey' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a passkey or security key' });
    await typeText(user, within(dialog).getByRole('textbox', { name: 'Name' }), 'Phone');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));

    expect(await within(dialog).findByText('Error adding passkey')).toBeInTheDocument();
    expect(
      within(dialog).getByText('The passkey request was cancelled or timed out. Please try again.'),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveValue('Phone');
    expect(sent.creates).toEqual([]);
  });

  it('renames one, and removes one once confirmed', async () => {
    const { user, sent } = await openProfile([aPasskey(1, { name: 'Old name' })]);
    await waitFor(() => expect(within(table()).getByText('Old name')).toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'Rename Old name' }));
    let dialog = await screen.findByRole('dialog', { name: 'Rename Old name' });
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    expect(name).toHaveValue('Old name');
    await user.clear(name);
    await typeText(user, name, 'Desk key');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Passkey renamed')).toBeInTheDocument();
    expect(sent.renames).toEqual([{ id: 1, name: 'Desk key' }]);
    await waitFor(() => expect(within(table()).getByText('Desk key')).toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'Remove Desk key' }));
    dialog = await screen.findByRole('dialog', { name: 'Remove Desk key?' });
    expect(sent.deletes).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Passkey removed')).toBeInTheDocument();
    expect(sent.deletes).toEqual([1]);
    await waitFor(() =>
      expect(within(table()).getByText('No passkeys or security keys yet.')).toBeInTheDocument(),
    );
  });

  it('shows the server’s refusal to remove the last one a policy needs, in the dialog', async () => {
    const { user } = await openProfile([aPasskey(1, { name: 'Only key' })]);
    server.use(
      http.delete(api('auth/passkeys/delete/:id'), () =>
        fail(
          409,
          'Your company requires an authenticator app or a passkey: add another one before removing this one.',
        ),
      ),
    );
    await waitFor(() => expect(within(table()).getByText('Only key')).toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Remove Only key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Only key?' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await within(dialog).findByText(/add another one before removing/)).toBeInTheDocument();
    expect(within(table()).getByText('Only key')).toBeInTheDocument();
  });
});

describe('the one-time-code page', () => {
  async function openCodePage() {
    noVerifiedSession();
    storeSession({ user: { email: 'ada@example.com' } });
    const view = await renderApp('/mfa');
    await screen.findByRole('heading', { name: 'Please check your email' });
    return view;
  }

  it('offers a user with a passkey to use it instead of the code, and signs in with it', async () => {
    serveSecondFactorStatus(aSecondFactorStatus({ passkey: true }));
    browser.startAuthentication.mockResolvedValue(ASSERTION);
    const sent: unknown[] = [];
    server.use(
      http.post(api('auth/passkeys/mfaOptions'), () =>
        ok({ challenge: 'mfa-challenge', rpId: 'localhost', allowCredentials: [] }),
      ),
      http.post(api('auth/passkeys/mfa'), async ({ request }) => {
        sent.push(await request.json());
        return ok({ user: aUser() }, 'Authenticated');
      }),
    );
    const { router, user } = await openCodePage();

    await user.click(screen.getByRole('button', { name: 'Use a passkey or security key' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(browser.startAuthentication).toHaveBeenCalledWith({
      optionsJSON: { challenge: 'mfa-challenge', rpId: 'localhost', allowCredentials: [] },
    });
    expect(sent).toEqual([{ credential: ASSERTION }]);
    expect(sessionStore.get()?.user.email).toBe(aUser().email);
  });

  it('shows what went wrong and keeps the code form', async () => {
    serveSecondFactorStatus(aSecondFactorStatus({ passkey: true }));
    browser.startAuthentication.mockResolvedValue(ASSERTION);
    server.use(
      http.post(api('auth/passkeys/mfaOptions'), () => ok({ challenge: 'c' })),
      http.post(api('auth/passkeys/mfa'), () =>
        fail(400, 'The passkey or security key could not be verified. Please try again.'),
      ),
    );
    const { router, user } = await openCodePage();
    await user.click(screen.getByRole('button', { name: 'Use a passkey or security key' }));
    expect(await screen.findByText('Error signing in with a passkey')).toBeInTheDocument();
    expect(
      screen.getByText('The passkey or security key could not be verified. Please try again.'),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/mfa');
    expect(screen.getByRole('button', { name: 'Authenticate' })).toBeInTheDocument();
  });

  it('offers nothing more to a user without a passkey', async () => {
    serveSecondFactorStatus(aSecondFactorStatus({ passkey: false }));
    await openCodePage();
    expect(
      screen.queryByRole('button', { name: 'Use a passkey or security key' }),
    ).not.toBeInTheDocument();
  });
});

describe('the sign-in page', () => {
  it('signs in with a passkey, without the password, keeping Remember me', async () => {
    noVerifiedSession();
    browser.startAuthentication.mockResolvedValue(ASSERTION);
    const sent: unknown[] = [];
    server.use(
      http.post(api('auth/passkeys/loginOptions'), () =>
        ok({ challenge: 'login-challenge', rpId: 'localhost', userVerification: 'required' }),
      ),
      http.post(api('auth/passkeys/login'), async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json(
          { data: { user: aUser() }, message: 'Authenticated' },
          { headers: { Authorization: 'Bearer token-from-passkey' } },
        );
      }),
    );
    const { router, user } = await renderApp('/login');
    await screen.findByRole('heading', { name: 'Login' });

    await user.click(screen.getByRole('checkbox', { name: 'Remember me' }));
    await user.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(sent).toEqual([{ credential: ASSERTION, rememberMe: true }]);
    expect(localStorage.getItem('token')).toBe('token-from-passkey');
    expect(sessionStore.get()?.rememberMe).toBe(true);
  });

  it('says so when the passkey is not one of an account, staying on the page', async () => {
    noVerifiedSession();
    browser.startAuthentication.mockResolvedValue(ASSERTION);
    server.use(
      http.post(api('auth/passkeys/loginOptions'), () => ok({ challenge: 'c' })),
      http.post(api('auth/passkeys/login'), () =>
        fail(401, 'This passkey or security key is not registered for your account'),
      ),
    );
    const { router, user } = await renderApp('/login');
    await screen.findByRole('heading', { name: 'Login' });
    await user.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    expect(
      await screen.findByText('This passkey or security key is not registered for your account'),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(sessionStore.getToken()).toBeNull();
  });

  it('says so in a browser without WebAuthn, asking the server nothing', async () => {
    vi.unstubAllGlobals();
    noVerifiedSession();
    const { user } = await renderApp('/login');
    await screen.findByRole('heading', { name: 'Login' });
    await user.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    expect(await screen.findByText('This browser cannot use passkeys')).toBeInTheDocument();
    expect(screen.getByText('Error signing in with a passkey')).toBeInTheDocument();
  });
});
