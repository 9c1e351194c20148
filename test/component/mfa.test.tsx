import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { authMessages } from '../../src/api/contract/auth';
import { messages } from '../../src/api/contract/validation';
import { sessionStore } from '../../src/api/session-store';
import { aUser } from './support/fixtures';
import { noVerifiedSession, storeSession } from './support/identity-helpers';
import { api, fail, http, ok, server } from './support/msw';
import { renderApp } from './support/render';
import { serveDashboard } from './support/dashboard-fixtures';
import { serveSecondFactorStatus, withApp } from './support/second-factor-fixtures';
import { typeText } from './support/typing';

// The Dashboard, where signing in lands, loads the VM usage. The page asks which second step the
// pending sign-in has: the e-mailed code unless a test says otherwise.
beforeEach(() => {
  serveDashboard();
  serveSecondFactorStatus();
});

type View = Awaited<ReturnType<typeof renderApp>>;

const slots = () => screen.getAllByLabelText(/^Digit \d of 6$/);

async function enterCode(user: View['user'], code: string) {
  await user.click(screen.getByLabelText('Digit 1 of 6'));
  await user.keyboard(code);
}

async function openCodePage() {
  noVerifiedSession();
  storeSession({ user: { email: 'ada@example.com' } });
  const view = await renderApp('/mfa');
  await screen.findByRole('heading', { name: 'Please check your email' });
  return view;
}

describe('one-time code page', () => {
  it('shows where the code went, six labelled slots, Authenticate and Return to Login', async () => {
    const { router, user } = await openCodePage();

    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'One-time code' })).toBeInTheDocument();
    expect(slots()).toHaveLength(6);
    expect(slots()[0]).toHaveFocus();
    slots().forEach((slot) => expect(slot).toHaveAttribute('autocomplete', 'one-time-code'));
    expect(screen.getByRole('button', { name: 'Authenticate' })).toBeEnabled();

    await user.click(screen.getByRole('link', { name: 'Return to Login' }));
    await screen.findByRole('heading', { name: 'Login' });
    expect(router.state.location.pathname).toBe('/login');
  });

  it('shows each validation message', async () => {
    const { user } = await openCodePage();

    await user.click(screen.getByRole('button', { name: 'Authenticate' }));
    expect(await screen.findByText(messages.mfaRequired)).toBeInTheDocument();
    expect(slots()[0]).toHaveAccessibleDescription(messages.mfaRequired);
    expect(slots()[0]).toHaveFocus();

    await enterCode(user, '123');
    expect(await screen.findByText(messages.mfaLength)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Authenticate' }));
    expect(screen.getByText(messages.mfaLength)).toBeInTheDocument();
  });

  it('accepts only digits and fills every slot from a pasted code', async () => {
    const { user } = await openCodePage();

    await user.click(screen.getByLabelText('Digit 1 of 6'));
    await user.keyboard('a');
    expect(slots()[0]).toHaveValue('');
    await user.paste('654321');
    expect(slots().map((slot) => (slot as HTMLInputElement).value)).toEqual([
      '6',
      '5',
      '4',
      '3',
      '2',
      '1',
    ]);
  });

  it('goes to the dashboard after a good code, signed in', async () => {
    let sent: unknown;
    const { router, user } = await openCodePage();
    server.use(
      http.post(api('auth/mfa'), async ({ request }) => {
        sent = await request.json();
        return ok({ user: aUser() }, authMessages.authenticated);
      }),
    );

    await enterCode(user, '123456');
    await user.click(screen.getByRole('button', { name: 'Authenticate' }));

    // The auth check still answers 401: only the code's answer can have let the user in.
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(sent).toEqual({ code: '123456' });
  });

  it('goes to the reset form with token and id when a password reset is forced', async () => {
    const { router, user } = await openCodePage();
    server.use(
      http.post(api('auth/mfa'), () =>
        ok({ user: aUser({ forcePasswordReset: true, resetKey: 'forced-key' }) }, 'Authenticated'),
      ),
    );

    await enterCode(user, '123456');
    await user.click(screen.getByRole('button', { name: 'Authenticate' }));

    expect(await screen.findByRole('heading', { name: 'Reset Password' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/resetPassword');
    expect(router.state.location.search).toEqual({ token: 'forced-key', id: 7 });
    expect(sessionStore.get()).toMatchObject({ needsReset: true, resetKey: 'forced-key' });
  });

  it('shows a wrong code under its lead and empties the slots for another try', async () => {
    const { router, user } = await openCodePage();
    server.use(http.post(api('auth/mfa'), () => fail(400, authMessages.invalidCode)));

    await enterCode(user, '111111');
    await user.click(screen.getByRole('button', { name: 'Authenticate' }));

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Error authenticating')).toBeInTheDocument();
    expect(within(alert).getByText('Invalid MFA code')).toBeInTheDocument();
    await waitFor(() => slots().forEach((slot) => expect(slot).toHaveValue('')));
    expect(slots()[0]).toHaveFocus();
    // Typing again is not met with a validation message for the emptied slots.
    await user.keyboard('2');
    expect(screen.queryByText(messages.mfaLength)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Authenticate' })).toBeEnabled();
    expect(router.state.location.pathname).toBe('/mfa');
  });

  it('tells the user to return to login once the retries are exhausted', async () => {
    const { user } = await openCodePage();
    server.use(http.post(api('auth/mfa'), () => fail(429, authMessages.retriesExhausted)));

    await enterCode(user, '111111');
    await user.click(screen.getByRole('button', { name: 'Authenticate' }));

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Error authenticating')).toBeInTheDocument();
    expect(within(alert).getByText('Retries exhausted')).toBeInTheDocument();
    expect(
      within(alert).getByText('Please return to login to request a new code.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Authenticate' })).toBeDisabled();
    expect(screen.getByRole('link', { name: 'Return to Login' })).toBeVisible();
  });

  it('goes to the sign-in page when no sign-in is pending', async () => {
    noVerifiedSession();
    const { router } = await renderApp('/mfa');

    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(screen.queryByText(/We sent a 6-digit code/)).not.toBeInTheDocument();
    // Back does not return to a code page that has nothing to check.
    expect(router.history.length).toBe(1);
  });

  it('skips to the dashboard when the session is already verified', async () => {
    server.use(http.get(api('auth/check'), () => ok({ user: aUser() })));
    storeSession();
    const { router } = await renderApp('/mfa');

    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it('skips to the reset form when a verified session must change its password', async () => {
    server.use(http.get(api('auth/check'), () => ok({ user: aUser() })));
    storeSession({ needsReset: true, resetKey: 'stored-key' });
    const { router } = await renderApp('/mfa');

    expect(await screen.findByRole('heading', { name: 'Reset Password' })).toBeInTheDocument();
    expect(router.state.location.search).toEqual({ token: 'stored-key', id: 7 });
  });
});

describe('one-time code page for a user with an authenticator app', () => {
  async function openAppPage() {
    noVerifiedSession();
    serveSecondFactorStatus(withApp());
    storeSession({ user: { email: 'ada@example.com' } });
    const view = await renderApp('/mfa');
    await screen.findByRole('heading', { name: 'Check your authenticator app' });
    return view;
  }

  it("asks for the app's code, not an e-mailed one, and signs in with it", async () => {
    let sent: unknown;
    const { router, user } = await openAppPage();
    server.use(
      http.post(api('auth/mfa'), async ({ request }) => {
        sent = await request.json();
        return ok({ user: aUser() }, authMessages.authenticated);
      }),
    );

    expect(screen.queryByText(/We sent a 6-digit code/)).not.toBeInTheDocument();
    expect(screen.getByText(/Open the authenticator app/)).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Authenticator code' })).toBeInTheDocument();
    expect(slots()).toHaveLength(6);
    expect(slots()[0]).toHaveFocus();

    await enterCode(user, '654321');
    await user.click(screen.getByRole('button', { name: 'Authenticate' }));

    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(sent).toEqual({ code: '654321' });
  });

  it('says when a code was already used, and lets the next one be typed', async () => {
    const { user } = await openAppPage();
    server.use(
      http.post(api('auth/mfa'), () =>
        fail(400, 'This code has already been used. Wait for the next code in your app.', [
          { field: 'code', message: 'This code has already been used.' },
        ]),
      ),
    );

    await enterCode(user, '654321');
    await user.click(screen.getByRole('button', { name: 'Authenticate' }));

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(/already been used/, { selector: 'div' })).toBeInTheDocument();
    await waitFor(() => slots().forEach((slot) => expect(slot).toHaveValue('')));
    expect(screen.getByRole('button', { name: 'Authenticate' })).toBeEnabled();
  });

  it('switches to a recovery code and back', async () => {
    let sent: unknown;
    const { router, user } = await openAppPage();
    server.use(
      http.post(api('auth/mfa'), async ({ request }) => {
        sent = await request.json();
        return ok({ user: aUser() }, authMessages.authenticated);
      }),
    );

    await user.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    const field = screen.getByRole('textbox', { name: 'Recovery code' });
    expect(field).toHaveFocus();
    expect(screen.getByText(/recovery codes you saved/)).toBeInTheDocument();

    await typeText(user, field, 'nope');
    await user.click(screen.getByRole('button', { name: 'Authenticate' }));
    expect(
      await screen.findByText('A recovery code has 10 letters and digits, like k7m2p-x6qhd'),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Use the authenticator app' }));
    expect(screen.getByRole('group', { name: 'Authenticator code' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Use a recovery code' }));

    await typeText(user, screen.getByRole('textbox', { name: 'Recovery code' }), 'K7M2P-X6QHD');
    await user.click(screen.getByRole('button', { name: 'Authenticate' }));

    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(sent).toEqual({ code: 'K7M2P-X6QHD' });
  });
});
