import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { messages } from '../../src/api/contract/validation';
import { noVerifiedSession, pasteInto, STRONG_PASSWORD } from './support/identity-helpers';
import { api, fail, http, ok, server } from './support/msw';
import { renderApp } from './support/render';
import { typeText } from './support/typing';

type View = Awaited<ReturnType<typeof renderApp>>;

const activate = (user: View['user']) =>
  user.click(screen.getByRole('button', { name: 'Activate Account' }));

async function openActivation(path = '/confirmNewUser?token=invite-token&id=12') {
  const view = await renderApp(path);
  await screen.findByRole('heading', { name: 'Activate Account' });
  return view;
}

async function fillForm(user: View['user']) {
  await typeText(user, screen.getByLabelText('First Name'), 'Grace');
  await typeText(user, screen.getByLabelText('Last Name'), 'Hopper');
  await pasteInto(user, screen.getByLabelText('New Password'), STRONG_PASSWORD);
  await pasteInto(user, screen.getByLabelText('Confirm Password'), STRONG_PASSWORD);
}

describe('activate account', () => {
  it('says the token is missing when the link carries none', async () => {
    await openActivation('/confirmNewUser?id=12');

    expect(screen.getByText(messages.missingResetToken)).toBeInTheDocument();
    expect(screen.queryByLabelText('First Name')).not.toBeInTheDocument();
  });

  it('shows the fields, the live checklist and every validation message', async () => {
    const { user } = await openActivation();

    expect(screen.getByRole('list', { name: 'Password requirements' })).toBeInTheDocument();
    await activate(user);
    expect(await screen.findByText(messages.firstNameRequired)).toBeInTheDocument();
    expect(screen.getByText(messages.lastNameRequired)).toBeInTheDocument();
    expect(screen.getAllByText(messages.passwordRequired)).toHaveLength(2);
    expect(screen.getByLabelText('First Name')).toHaveFocus();
    expect(screen.getByLabelText('Last Name')).toHaveAccessibleDescription(
      messages.lastNameRequired,
    );

    await typeText(user, screen.getByLabelText('First Name'), 'Grace');
    await typeText(user, screen.getByLabelText('Last Name'), '   ');
    await activate(user);
    await waitFor(() => expect(screen.getByLabelText('Last Name')).toHaveFocus());
    expect(screen.queryByText(messages.firstNameRequired)).not.toBeInTheDocument();
    expect(screen.getByText(messages.lastNameRequired)).toBeInTheDocument();

    await pasteInto(user, screen.getByLabelText('New Password'), 'Password1234');
    expect(await screen.findByText(messages.passwordWeak)).toBeInTheDocument();
    await pasteInto(user, screen.getByLabelText('Confirm Password'), 'Different!1234');
    expect(await screen.findByText(messages.passwordMismatch)).toBeInTheDocument();
  });

  it('activates the account and offers the way to login', async () => {
    noVerifiedSession();
    let call: { token: string; body: unknown } | undefined;
    server.use(
      http.post(api('users/confirmEmail/:token'), async ({ request, params }) => {
        call = { token: String(params.token), body: await request.json() };
        return ok(null, 'Account activated');
      }),
    );
    const { router, user } = await openActivation();

    await fillForm(user);
    await activate(user);

    expect(await screen.findByRole('heading', { name: 'Account Activated!' })).toBeVisible();
    expect(call).toEqual({
      token: 'invite-token',
      body: {
        id: 12,
        password: STRONG_PASSWORD,
        resetKey: 'invite-token',
        firstName: 'Grace',
        lastName: 'Hopper',
      },
    });

    await user.click(screen.getByRole('button', { name: 'Go to Login' }));
    await screen.findByRole('heading', { name: 'Login' });
    expect(router.state.location.pathname).toBe('/login');
  });

  it('shows the server message under its lead and keeps the form', async () => {
    server.use(
      http.post(api('users/confirmEmail/:token'), () =>
        fail(400, 'This link is invalid or has expired'),
      ),
    );
    const { user } = await openActivation();

    await fillForm(user);
    await activate(user);

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Error confirming email')).toBeInTheDocument();
    expect(within(alert).getByText('This link is invalid or has expired')).toBeInTheDocument();
    expect(screen.getByLabelText('First Name')).toHaveValue('Grace');
    expect(screen.getByLabelText('Confirm Password')).toHaveValue(STRONG_PASSWORD);
  });
});
