import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { authMessages } from '../../src/api/contract/auth';
import { messages } from '../../src/api/contract/validation';
import { sessionStore } from '../../src/api/session-store';
import { aUser } from './support/fixtures';
import { noVerifiedSession, storeSession } from './support/identity-helpers';
import { api, fail, http, HttpResponse, ok, server } from './support/msw';
import { renderApp } from './support/render';
import { serveDashboard } from './support/dashboard-fixtures';
import { typeText } from './support/typing';

// The Dashboard, where signing in lands, loads the VM usage.
beforeEach(() => void serveDashboard());

const loginAnswer = (user = aUser(), secondFactor: 'email' | 'totp' = 'email') =>
  HttpResponse.json(
    {
      data: { user, secondFactor, passkey: false },
      message: 'A sign-in code has been sent to your email',
    },
    { headers: { Authorization: 'Bearer token-from-login' } },
  );

async function fillAndSubmit(
  user: Awaited<ReturnType<typeof renderApp>>['user'],
  email: string,
  password: string,
) {
  if (email) await user.type(screen.getByLabelText('Email'), email);
  if (password) await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Login' }));
}

describe('login', () => {
  it('shows the form with its link to Forgot Password when no session is verified', async () => {
    noVerifiedSession();
    const { router, user } = await renderApp('/login');

    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveFocus();
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
    expect(screen.getByRole('checkbox', { name: 'Remember me' })).not.toBeChecked();
    expect(screen.getByRole('button', { name: 'Login' })).toHaveAttribute('type', 'submit');
    expect(screen.getByText('Launchpad')).toBeInTheDocument();
    expect(document.title).toBe('Launchpad');

    await user.click(screen.getByRole('link', { name: 'Forgot Password?' }));
    expect(await screen.findByRole('heading', { name: 'Forgot Password' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/forgotPassword');
  });

  it('says so when the session check fails for another reason than no session', async () => {
    server.use(http.get(api('auth/check'), () => fail(503, 'Database is unavailable')));
    await renderApp('/login');

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Error checking auth.')).toBeInTheDocument();
    expect(within(alert).getByText('Database is unavailable')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Login' })).toBeEnabled();
  });

  it('shows no check error when there is simply no session', async () => {
    noVerifiedSession();
    await renderApp('/login');

    await screen.findByRole('heading', { name: 'Login' });
    expect(screen.queryByText('Error checking auth.')).not.toBeInTheDocument();
  });

  it('shows each validation message and focuses the first invalid field', async () => {
    noVerifiedSession();
    const { user } = await renderApp('/login');
    await screen.findByRole('heading', { name: 'Login' });

    await user.click(screen.getByRole('button', { name: 'Login' }));
    const email = screen.getByLabelText('Email');
    const password = screen.getByLabelText('Password');
    expect(await screen.findByText(messages.emailRequired)).toBeInTheDocument();
    expect(screen.getByText(messages.passwordRequired)).toBeInTheDocument();
    expect(email).toHaveAccessibleDescription(messages.emailRequired);
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(password).toHaveAccessibleDescription(messages.passwordRequired);
    expect(email).toHaveFocus();

    // After the first submit each field checks itself as the user types.
    await typeText(user, email, 'ada@example');
    expect(await screen.findByText(messages.emailFormat)).toBeInTheDocument();
    await typeText(user, email, '.com');
    await waitFor(() => expect(screen.queryByText(messages.emailFormat)).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(password).toHaveFocus());
  });

  it('signs in, keeps the session and goes to the code page with the e-mail', async () => {
    noVerifiedSession();
    let body: unknown;
    server.use(
      http.post(api('auth/login'), async ({ request }) => {
        body = await request.json();
        return loginAnswer(aUser({ resellerEmail: 'support@reseller.example' }));
      }),
    );
    const { router, user } = await renderApp('/login');
    await screen.findByRole('heading', { name: 'Login' });

    await fillAndSubmit(user, ' Ada@Example.com ', 'correct horse');

    expect(await screen.findByRole('heading', { name: 'Please check your email' })).toBeVisible();
    expect(router.state.location.pathname).toBe('/mfa');
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    // The code page is handed the e-mail, the reseller's e-mail and the user.
    expect(router.state.location.state).toMatchObject({
      email: 'ada@example.com',
      resellerEmail: 'support@reseller.example',
      user: { id: 7, firstName: 'Ada' },
    });
    expect(body).toEqual({
      email: 'ada@example.com',
      password: 'correct horse',
      rememberMe: false,
    });
    expect(sessionStore.get()).toMatchObject({
      user: { id: 7, email: 'ada@example.com' },
      rememberMe: false,
      needsReset: false,
      resetKey: null,
    });
    expect(Date.parse(sessionStore.get()!.lastAuthed)).not.toBeNaN();
  });

  it('sends the bearer token of the login answer with the next request', async () => {
    noVerifiedSession();
    let authorization: string | null = null;
    server.use(
      http.post(api('auth/login'), () => loginAnswer()),
      http.post(api('auth/mfa'), ({ request }) => {
        authorization = request.headers.get('Authorization');
        return fail(400, 'Invalid MFA code');
      }),
    );
    const { user } = await renderApp('/login');
    await screen.findByRole('heading', { name: 'Login' });
    await fillAndSubmit(user, 'ada@example.com', 'correct horse');
    await screen.findByRole('heading', { name: 'Please check your email' });

    await user.click(screen.getByLabelText('Digit 1 of 6'));
    await user.keyboard('123456');
    await user.click(screen.getByRole('button', { name: 'Authenticate' }));

    await screen.findByText('Invalid MFA code');
    expect(authorization).toBe('Bearer token-from-login');
  });

  it("asks an app user for the app's code at once, from the login's answer", async () => {
    noVerifiedSession();
    let asked = 0;
    server.use(
      http.post(api('auth/login'), () => loginAnswer(aUser(), 'totp')),
      http.get(api('auth/secondFactor'), () => {
        asked += 1;
        return fail(500, 'not asked');
      }),
    );
    const { user } = await renderApp('/login');
    await screen.findByRole('heading', { name: 'Login' });
    await fillAndSubmit(user, 'ada@example.com', 'correct horse');

    expect(
      await screen.findByRole('heading', { name: 'Check your authenticator app' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Use a recovery code' })).toBeInTheDocument();
    expect(asked).toBe(0);
  });

  it('keeps a remembered session across browser restarts', async () => {
    noVerifiedSession();
    server.use(http.post(api('auth/login'), () => loginAnswer()));
    const { user } = await renderApp('/login');
    await screen.findByRole('heading', { name: 'Login' });

    await user.click(screen.getByRole('checkbox', { name: 'Remember me' }));
    await fillAndSubmit(user, 'ada@example.com', 'correct horse');
    await screen.findByRole('heading', { name: 'Please check your email' });

    expect(sessionStore.get()?.rememberMe).toBe(true);
    // localStorage outlives the tab; sessionStorage would not.
    expect(localStorage.getItem('token')).toBe('token-from-login');
    expect(sessionStorage.getItem('token')).toBeNull();
  });

  it('shows the server message under its lead and keeps what was typed', async () => {
    noVerifiedSession();
    storeSession();
    server.use(http.post(api('auth/login'), () => fail(401, 'Invalid email or password')));
    const { router, user } = await renderApp('/login');
    await screen.findByRole('heading', { name: 'Login' });

    await fillAndSubmit(user, 'ada@example.com', 'wrong password');

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Error logging in.')).toBeInTheDocument();
    expect(within(alert).getByText('Invalid email or password')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
    expect(screen.getByLabelText('Password')).toHaveValue('wrong password');
    expect(router.state.location.pathname).toBe('/login');
    expect(sessionStore.get()).toBeNull();
    expect(screen.getByRole('button', { name: 'Login' })).toBeEnabled();
  });

  it('shows the throttling answer the same way', async () => {
    noVerifiedSession();
    server.use(
      http.post(api('auth/login'), () => fail(429, 'Too many requests, please try again later')),
    );
    const { user } = await renderApp('/login');
    await screen.findByRole('heading', { name: 'Login' });
    await fillAndSubmit(user, 'ada@example.com', 'whatever');

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Error logging in.')).toBeInTheDocument();
    expect(within(alert).getByText('Too many requests, please try again later')).toBeVisible();
  });

  it('shows a suspended company’s refusal (403) as the server words it', async () => {
    noVerifiedSession();
    const suspended = authMessages.accountSuspended('support@skyline.example');
    server.use(http.post(api('auth/login'), () => fail(403, suspended)));
    const { router, user } = await renderApp('/login');
    await screen.findByRole('heading', { name: 'Login' });
    await fillAndSubmit(user, 'ada@example.com', 'correct horse');

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Error logging in.')).toBeInTheDocument();
    expect(
      within(alert).getByText(
        'This account is suspended. Contact support@skyline.example for help.',
      ),
    ).toBeVisible();
    expect(router.state.location.pathname).toBe('/login');
    expect(sessionStore.get()).toBeNull();
    expect(screen.getByLabelText('Password')).toHaveValue('correct horse');
  });

  it('shows a loading button while the answer is on its way', async () => {
    noVerifiedSession();
    let answer: () => void = () => {};
    server.use(
      http.post(api('auth/login'), async () => {
        await new Promise<void>((resolve) => (answer = resolve));
        return fail(401, 'Invalid email or password');
      }),
    );
    const { user } = await renderApp('/login');
    await screen.findByRole('heading', { name: 'Login' });
    await typeText(user, screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret{Enter}');

    await waitFor(() => expect(screen.getByRole('button', { name: 'Login' })).toBeDisabled());
    answer();
    await screen.findByText('Invalid email or password');
    expect(screen.getByRole('button', { name: 'Login' })).toBeEnabled();
  });

  it('skips the form for a verified session (on through the code page to the dashboard)', async () => {
    server.use(http.get(api('auth/check'), () => ok({ user: aUser() })));
    const { router } = await renderApp('/login');

    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
  });

  it('sends a verified session that must change its password to the reset form', async () => {
    server.use(http.get(api('auth/check'), () => ok({ user: aUser() })));
    storeSession({ needsReset: true, resetKey: 'reset-key-1' });
    const { router } = await renderApp('/login');

    expect(await screen.findByRole('heading', { name: 'Reset Password' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/resetPassword');
    expect(router.state.location.search).toEqual({ token: 'reset-key-1', id: 7 });
  });
});
