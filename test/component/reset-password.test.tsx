import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { authMessages } from '../../src/api/contract/auth';
import { messages } from '../../src/api/contract/validation';
import { sessionStore } from '../../src/api/session-store';
import { aUser } from './support/fixtures';
import {
  noVerifiedSession,
  pasteInto,
  storeSession,
  storedUser,
  STRONG_PASSWORD,
} from './support/identity-helpers';
import { api, fail, http, ok, server } from './support/msw';
import { renderApp } from './support/render';
import { serveDashboard } from './support/dashboard-fixtures';
import { typeText } from './support/typing';

// The Dashboard, where signing in lands, loads the VM usage.
beforeEach(() => void serveDashboard());

type View = Awaited<ReturnType<typeof renderApp>>;

const newPassword = () => screen.getByLabelText('New Password');
const confirmPassword = () => screen.getByLabelText('Confirm Password');
const submit = (user: View['user']) =>
  user.click(screen.getByRole('button', { name: 'Reset Password' }));

/** Each checklist line with its state as a screen reader reads it. */
const checklist = () =>
  within(screen.getByRole('list', { name: 'Password requirements' }))
    .getAllByRole('listitem')
    .map((item) => item.textContent);

function answerReset(onReset?: () => void) {
  const calls: { token: string; body: unknown }[] = [];
  server.use(
    http.post(api('users/resetPasswordFromEmail/:token'), async ({ request, params }) => {
      calls.push({ token: String(params.token), body: await request.json() });
      onReset?.();
      return ok(null, authMessages.passwordReset);
    }),
  );
  return calls;
}

async function openReset(path = '/resetPassword?token=email-token&id=7') {
  const view = await renderApp(path);
  await screen.findByRole('heading', { name: 'Reset Password' });
  return view;
}

describe('reset password', () => {
  it('says the token is missing when the link carries none and nothing is stored', async () => {
    await openReset('/resetPassword');

    expect(screen.getByText(messages.missingResetToken)).toBeInTheDocument();
    expect(screen.queryByLabelText('New Password')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reset Password' })).not.toBeInTheDocument();
  });

  it('treats a malformed id as missing', async () => {
    await openReset('/resetPassword?token=email-token&id=abc');
    expect(screen.getByText(messages.missingResetToken)).toBeInTheDocument();
  });

  it('shows a live checklist as the user types', async () => {
    const { user } = await openReset();

    expect(checklist()).toEqual([
      'Minimum 12 characters: not met',
      'Special character: not met',
      'Contains number: not met',
      'Uppercase letter: not met',
      'Lowercase letter: not met',
      'Password confirmed: not met',
    ]);

    await typeText(user, newPassword(), 'abc1!');
    expect(checklist()).toEqual([
      'Minimum 12 characters: not met',
      'Special character: met',
      'Contains number: met',
      'Uppercase letter: not met',
      'Lowercase letter: met',
      'Password confirmed: not met',
    ]);

    await user.clear(newPassword());
    await user.type(newPassword(), STRONG_PASSWORD);
    await pasteInto(user, confirmPassword(), STRONG_PASSWORD);
    expect(checklist()).toEqual([
      'Minimum 12 characters: met',
      'Special character: met',
      'Contains number: met',
      'Uppercase letter: met',
      'Lowercase letter: met',
      'Password confirmed: met',
    ]);
  });

  it('asks for both passwords and focuses the first', async () => {
    const { user } = await openReset();

    await submit(user);
    await waitFor(() => expect(screen.getAllByText(messages.passwordRequired)).toHaveLength(2));
    expect(newPassword()).toHaveAccessibleDescription(messages.passwordRequired);
    expect(confirmPassword()).toHaveAccessibleDescription(messages.passwordRequired);
    expect(newPassword()).toHaveFocus();
  });

  it('shows the length and strength messages', async () => {
    const { user } = await openReset();
    await submit(user);

    await pasteInto(user, newPassword(), 'Short1!');
    expect(await screen.findByText(messages.passwordTooShort)).toBeInTheDocument();

    await pasteInto(user, newPassword(), `Aa1!${'x'.repeat(47)}`);
    expect(await screen.findByText(messages.passwordTooLong)).toBeInTheDocument();

    await pasteInto(user, newPassword(), 'alllowercase1!');
    expect(await screen.findByText(messages.passwordWeak)).toBeInTheDocument();
  });

  it('asks for matching passwords and focuses Confirm Password', async () => {
    const { user } = await openReset();

    await pasteInto(user, newPassword(), STRONG_PASSWORD);
    await pasteInto(user, confirmPassword(), `${STRONG_PASSWORD}x`);
    await submit(user);

    expect(await screen.findByText(messages.passwordMismatch)).toBeInTheDocument();
    expect(confirmPassword()).toHaveAccessibleDescription(messages.passwordMismatch);
    await waitFor(() => expect(confirmPassword()).toHaveFocus());
  });

  it('resets the password, forgets the session and offers the way in', async () => {
    noVerifiedSession();
    storeSession({ needsReset: true, resetKey: 'email-token' });
    const calls = answerReset();
    const { router, user } = await openReset();

    await pasteInto(user, newPassword(), STRONG_PASSWORD);
    await pasteInto(user, confirmPassword(), STRONG_PASSWORD);
    await submit(user);

    expect(await screen.findByRole('heading', { name: 'Password Reset Complete' })).toBeVisible();
    expect(screen.getByText('Your password has been successfully reset.')).toBeInTheDocument();
    expect(calls).toEqual([
      { token: 'email-token', body: { id: 7, password: STRONG_PASSWORD, resetKey: 'email-token' } },
    ]);
    expect(sessionStore.get()).toBeNull();
    // No automatic redirect: the user chooses to go on.
    expect(router.state.location.pathname).toBe('/resetPassword');

    await user.click(screen.getByRole('button', { name: 'Go to Reseller Launchpad' }));
    // Without a verified session the protected area sends the user to sign in.
    await screen.findByRole('heading', { name: 'Login' });
    expect(router.state.location.pathname).toBe('/login');
  });

  it('sends a verified user to sign in again with the new password after a forced reset', async () => {
    // The server ends every session of the user on reset: the check answers 401 from then on.
    let resetDone = false;
    server.use(
      http.get(api('auth/check'), () =>
        resetDone
          ? fail(401, 'Not authenticated')
          : ok({ user: aUser({ forcePasswordReset: true }) }),
      ),
    );
    storeSession({ needsReset: true, resetKey: 'forced-key' });
    answerReset(() => {
      resetDone = true;
    });
    const { queryClient, router, user } = await renderApp('/');
    await screen.findByRole('heading', { name: 'Dashboard' });
    await router.navigate({ to: '/resetPassword', search: { token: 'forced-key', id: 7 } });

    await pasteInto(user, newPassword(), STRONG_PASSWORD);
    await pasteInto(user, confirmPassword(), STRONG_PASSWORD);
    await submit(user);
    await user.click(await screen.findByRole('button', { name: 'Go to Reseller Launchpad' }));

    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(sessionStore.get()).toBeNull();
    expect(queryClient.getQueryData(['auth', 'check'])).toBeUndefined();
  });

  it('falls back to the stored reset key and user id', async () => {
    storeSession({ user: { id: 42 }, needsReset: true, resetKey: 'stored-key' });
    const calls = answerReset();
    const { user } = await openReset('/resetPassword');

    await pasteInto(user, newPassword(), STRONG_PASSWORD);
    await pasteInto(user, confirmPassword(), STRONG_PASSWORD);
    await user.keyboard('{Enter}');

    await screen.findByRole('heading', { name: 'Password Reset Complete' });
    expect(calls).toEqual([
      { token: 'stored-key', body: { id: 42, password: STRONG_PASSWORD, resetKey: 'stored-key' } },
    ]);
  });

  it('falls back to the user handed over in navigation state', async () => {
    noVerifiedSession();
    const calls = answerReset();
    const { router, user } = await renderApp('/login');
    await screen.findByRole('heading', { name: 'Login' });

    await router.navigate({
      to: '/resetPassword',
      state: { user: storedUser({ id: 9, resetKey: 'state-key' }) },
    });
    await screen.findByRole('heading', { name: 'Reset Password' });
    await pasteInto(user, newPassword(), STRONG_PASSWORD);
    await pasteInto(user, confirmPassword(), STRONG_PASSWORD);
    await submit(user);

    await screen.findByRole('heading', { name: 'Password Reset Complete' });
    expect(calls).toEqual([
      { token: 'state-key', body: { id: 9, password: STRONG_PASSWORD, resetKey: 'state-key' } },
    ]);
  });

  it('shows the server message under its lead and keeps the form', async () => {
    server.use(
      http.post(api('users/resetPasswordFromEmail/:token'), () =>
        fail(400, authMessages.invalidResetLink),
      ),
    );
    const { user } = await openReset();

    await pasteInto(user, newPassword(), STRONG_PASSWORD);
    await pasteInto(user, confirmPassword(), STRONG_PASSWORD);
    await submit(user);

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Error resetting password')).toBeInTheDocument();
    expect(within(alert).getByText('This link is invalid or has expired')).toBeInTheDocument();
    expect(newPassword()).toHaveValue(STRONG_PASSWORD);
    expect(confirmPassword()).toHaveValue(STRONG_PASSWORD);
    expect(screen.getByRole('heading', { name: 'Reset Password' })).toBeInTheDocument();
  });

  it('lists the field messages of a 400 answer', async () => {
    server.use(
      http.post(api('users/resetPasswordFromEmail/:token'), () =>
        fail(400, 'Validation failed', [{ field: 'password', message: messages.passwordWeak }]),
      ),
    );
    const { user } = await openReset();

    await pasteInto(user, newPassword(), STRONG_PASSWORD);
    await pasteInto(user, confirmPassword(), STRONG_PASSWORD);
    await submit(user);

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Validation failed')).toBeInTheDocument();
    expect(within(alert).getByText(messages.passwordWeak)).toBeInTheDocument();
  });
});
