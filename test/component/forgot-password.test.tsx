import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { authMessages } from '../../src/api/contract/auth';
import { messages } from '../../src/api/contract/validation';
import { noVerifiedSession } from './support/identity-helpers';
import { api, fail, http, ok, server } from './support/msw';
import { renderApp } from './support/render';
import { typeText } from './support/typing';

async function openForgotPassword() {
  const view = await renderApp('/forgotPassword');
  await screen.findByRole('heading', { name: 'Forgot Password' });
  return view;
}

describe('forgot password', () => {
  it('shows one Email field, Continue, and a Return to Login link', async () => {
    noVerifiedSession();
    const { router, user } = await openForgotPassword();

    expect(screen.getByLabelText('Email')).toHaveFocus();
    expect(screen.getAllByRole('textbox')).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Continue' })).toBeInTheDocument();

    await user.click(screen.getByRole('link', { name: 'Return to Login' }));
    await screen.findByRole('heading', { name: 'Login' });
    expect(router.state.location.pathname).toBe('/login');
  });

  it('shows both validation messages of its own', async () => {
    const { user } = await openForgotPassword();

    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(messages.forgotEmailRequired)).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription(
      messages.forgotEmailRequired,
    );

    await typeText(user, screen.getByLabelText('Email'), 'not-an-address');
    expect(await screen.findByText(messages.forgotEmailFormat)).toBeInTheDocument();
    expect(screen.queryByText(messages.forgotEmailRequired)).not.toBeInTheDocument();
  });

  it('confirms the request without saying whether the account exists', async () => {
    let sent: unknown;
    server.use(
      http.post(api('users/forgotPassword'), async ({ request }) => {
        sent = await request.json();
        return ok(null, authMessages.forgotPasswordSent);
      }),
    );
    const { user } = await openForgotPassword();

    await user.type(screen.getByLabelText('Email'), ' Ada@Example.com{Enter}');

    expect(await screen.findByRole('heading', { name: 'Reset Request Sent!' })).toBeVisible();
    expect(
      screen.getByText(
        "If an account with that email exists, you'll receive a password reset link shortly. Please check your inbox and spam folder.",
      ),
    ).toBeInTheDocument();
    expect(screen.queryByLabelText('Email')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Login' })).toBeVisible();
    expect(sent).toEqual({ email: 'ada@example.com' });
  });

  it('shows a failure under its lead', async () => {
    server.use(
      http.post(api('users/forgotPassword'), () =>
        fail(429, 'Too many requests, please try again later'),
      ),
    );
    const { user } = await openForgotPassword();

    await typeText(user, screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Error forgot password')).toBeInTheDocument();
    expect(within(alert).getByText('Too many requests, please try again later')).toBeVisible();
    expect(screen.getByRole('heading', { name: 'Forgot Password' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
  });
});
