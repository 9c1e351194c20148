import { notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SecondFactorStatus } from '../../src/api/contract/second-factor';
import { serveDashboard } from './support/dashboard-fixtures';
import { api, fail, http, ok, server } from './support/msw';
import { renderApp } from './support/render';
import { aSecondFactorStatus, withApp } from './support/second-factor-fixtures';
import { aUserDetails, serveUserPage, signedInAs } from './support/users-fixtures';
import { typeText } from './support/typing';

// Not returned: an awaited act() keeps its scope open into the next test's first steps.
afterEach(() => {
  act(() => notifications.clean());
});

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const URI = `otpauth://totp/Acme:ada%40example.com?secret=${SECRET}&issuer=Acme&algorithm=SHA1&digits=6&period=30`;
const CODES = Array.from({ length: 10 }, (_, i) => `abcd${i + 2}-efgh${(i % 5) + 2}`);

/** A fake of the app's routes over one user's state, recording what is sent. */
function serveApp(initial: SecondFactorStatus = aSecondFactorStatus()) {
  let status = initial;
  const sent = { enrolls: 0, confirms: [] as unknown[], disables: [] as unknown[] };
  server.use(
    // The passkeys card beside the app has tests of its own.
    http.get(api('auth/passkeys/list'), () => ok([])),
    http.get(api('auth/secondFactor'), () => ok(status)),
    http.post(api('auth/totp/enroll'), () => {
      sent.enrolls += 1;
      return ok({ secret: SECRET, otpauthUri: URI });
    }),
    http.post(api('auth/totp/confirm'), async ({ request }) => {
      const body = (await request.json()) as { code: string };
      sent.confirms.push(body);
      if (body.code !== '123456') {
        return fail(400, 'Invalid code. Enter the 6-digit code your app shows now.', [
          { field: 'code', message: 'Invalid code. Enter the 6-digit code your app shows now.' },
        ]);
      }
      status = withApp();
      return ok({ recoveryCodes: CODES }, 'Authenticator app turned on');
    }),
    http.post(api('auth/totp/disable'), async ({ request }) => {
      const body = (await request.json()) as { password: string; code: string };
      sent.disables.push(body);
      if (body.password !== 'right-password') {
        return fail(400, 'Current password is incorrect', [
          { field: 'password', message: 'Current password is incorrect' },
        ]);
      }
      status = aSecondFactorStatus();
      return ok(null, 'Authenticator app turned off');
    }),
  );
  return sent;
}

async function openOwnProfile(status?: SecondFactorStatus) {
  serveUserPage({ users: [aUserDetails({ id: 7, firstName: 'Ada', lastName: 'Lovelace' })] });
  const sent = serveApp(status);
  const view = await renderApp('/user?id=7');
  const card = await screen.findByRole('region', { name: 'Authenticator app' }, slow);
  await within(card).findByText(status?.totpEnabledAt ? 'On' : 'Off', {}, slow);
  return { ...view, sent, card };
}

const slots = () => screen.getAllByLabelText(/^Digit \d of 6$/);
/** The machine the suite runs on is shared: first draws of a screen may take a while. */
const slow = { timeout: 5_000 };

describe('Profile → Security: the authenticator app', () => {
  it("is on the user's own profile only", async () => {
    await openOwnProfile();
    expect(screen.getByRole('heading', { level: 2, name: 'Security' })).toBeInTheDocument();
  }, 30_000);

  it("is not on somebody else's profile", async () => {
    serveUserPage({
      users: [aUserDetails({ id: 7 }), aUserDetails({ id: 9, firstName: 'Grace' })],
    });
    await renderApp('/user?id=9');
    await screen.findByRole('heading', { name: /Grace/ });
    expect(screen.queryByRole('region', { name: 'Authenticator app' })).not.toBeInTheDocument();
  });

  it('sets up the app: key and QR code, a first code, then the recovery codes once', async () => {
    const { user, sent, card } = await openOwnProfile();

    await user.click(within(card).getByRole('button', { name: 'Set up authenticator app' }));
    const dialog = await screen.findByRole('dialog', { name: 'Set up authenticator app' });
    expect(await within(dialog).findByLabelText('Setup key')).toHaveTextContent(
      'JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP',
    );
    expect(
      await within(dialog).findByRole(
        'img',
        { name: 'QR code to scan with your authenticator app' },
        slow,
      ),
    ).toHaveAttribute('src', expect.stringMatching(/^data:image\/png;base64,/));
    expect(sent.enrolls).toBe(1);

    // A wrong code: said in the form, slots emptied for the next.
    await user.click(slots()[0]!);
    await user.keyboard('999999');
    await user.click(within(dialog).getByRole('button', { name: 'Turn on' }));
    expect(await within(dialog).findByText('Error turning on the authenticator app')).toBeVisible();
    await waitFor(() => slots().forEach((slot) => expect(slot).toHaveValue('')));

    await user.click(slots()[0]!);
    await user.keyboard('123456');
    await user.click(within(dialog).getByRole('button', { name: 'Turn on' }));

    const list = await within(dialog).findByRole('list', { name: 'Recovery codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(CODES);
    expect(sent.confirms).toEqual([{ code: '999999' }, { code: '123456' }]);
    // Only Done closes it now, once the codes are said to be saved.
    expect(within(dialog).queryByRole('button', { name: /close/i })).not.toBeInTheDocument();
    const done = within(dialog).getByRole('button', { name: 'Done' });
    expect(done).toBeDisabled();
    await user.click(
      within(dialog).getByRole('checkbox', { name: 'I have saved my recovery codes' }),
    );
    await user.click(done);

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await within(card).findByText('On')).toBeInTheDocument();
    expect(within(card).getByText('10 recovery codes left')).toBeInTheDocument();
  }, 30_000);

  it('says when setting up cannot start, and tries again', async () => {
    serveUserPage({ users: [aUserDetails({ id: 7 })] });
    serveApp();
    server.use(
      http.post(api('auth/totp/enroll'), () =>
        fail(409, 'An authenticator app is already set up. Turn it off first to set up another.'),
      ),
    );
    const { user } = await renderApp('/user?id=7');
    const card = await screen.findByRole('region', { name: 'Authenticator app' });
    await user.click(await within(card).findByRole('button', { name: 'Set up authenticator app' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText(/already set up/)).toBeVisible();
    expect(within(dialog).getByText('Error setting up the authenticator app')).toBeVisible();
    expect(within(dialog).getByRole('button', { name: 'Try again' })).toBeEnabled();
  }, 30_000);

  it('turns the app off with the password and a code, keeping them on a failure', async () => {
    const { user, sent, card } = await openOwnProfile(withApp({ recoveryCodesLeft: 2 }));
    expect(within(card).getByText(/2 recovery codes left/)).toBeInTheDocument();

    await user.click(within(card).getByRole('button', { name: 'Turn off' }));
    const dialog = await screen.findByRole('dialog', { name: 'Turn off authenticator app?' });
    await user.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    expect(await within(dialog).findByText('Password is required')).toBeVisible();
    expect(sent.disables).toEqual([]);

    await typeText(user, within(dialog).getByLabelText('Password'), 'wrong-password');
    await typeText(
      user,
      within(dialog).getByRole('textbox', { name: 'Code from the app, or a recovery code' }),
      '123456',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    expect(
      await within(dialog).findByText('Error turning off the authenticator app'),
    ).toBeVisible();
    expect(within(dialog).getAllByText('Current password is incorrect').length).toBeGreaterThan(0);
    expect(within(dialog).getByLabelText('Password')).toHaveValue('wrong-password');

    await user.clear(within(dialog).getByLabelText('Password'));
    await typeText(user, within(dialog).getByLabelText('Password'), 'right-password');
    await user.click(within(dialog).getByRole('button', { name: 'Turn off' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await within(card).findByText('Off')).toBeInTheDocument();
    expect(sent.disables.at(-1)).toEqual({ password: 'right-password', code: '123456' });
    expect(await screen.findByText('Authenticator app turned off')).toBeInTheDocument();
  }, 30_000);
});

describe('Settings → Security: the company policy', () => {
  function servePolicy(initial = false) {
    let required = initial;
    const puts: unknown[] = [];
    server.use(
      http.get(api('company/secondFactorPolicy'), () =>
        ok({ requireStrongSecondFactor: required }),
      ),
      http.put(api('company/secondFactorPolicy'), async ({ request }) => {
        const body = (await request.json()) as { requireStrongSecondFactor: boolean };
        puts.push(body);
        if (puts.length === 1) {
          return fail(
            409,
            'Set up an authenticator app or a passkey for yourself before requiring one for everyone',
          );
        }
        required = body.requireStrongSecondFactor;
        return ok(body, 'Sign-in policy saved');
      }),
    );
    return puts;
  }

  it('lets an Admin require an app or a passkey, after a confirmation', async () => {
    signedInAs({ isAdmin: true });
    const puts = servePolicy();
    const { user } = await renderApp('/settings?tab=security');
    const toggle = await screen.findByRole(
      'switch',
      { name: /^Require an authenticator app or a passkey for every user/ },
      slow,
    );
    expect(toggle).not.toBeChecked();

    await user.click(toggle);
    let dialog = await screen.findByRole('dialog', { name: 'Require an app or a passkey?' });
    await user.click(within(dialog).getByRole('button', { name: 'Require' }));
    // Refused: said in the dialog, which stays open.
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      /for yourself before requiring one for everyone/,
    );
    await user.click(within(dialog).getByRole('button', { name: 'Require' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(toggle).toBeChecked());
    expect(puts).toEqual([
      { requireStrongSecondFactor: true },
      { requireStrongSecondFactor: true },
    ]);

    await user.click(toggle);
    dialog = await screen.findByRole('dialog', { name: 'Stop requiring an app or a passkey?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(toggle).toBeChecked();
  }, 30_000);

  it('shows the policy to others without letting them change it', async () => {
    signedInAs({ isAdmin: false });
    servePolicy(true);
    await renderApp('/settings?tab=security');
    const toggle = await screen.findByRole(
      'switch',
      { name: /^Require an authenticator app or a passkey for every user/ },
      slow,
    );
    await waitFor(() => expect(toggle).toBeChecked());
    expect(toggle).toBeDisabled();
    expect(screen.getByText("Only your company's Admins can change this.")).toBeInTheDocument();
  });
});

describe('a user the company holds at enrolment', () => {
  it('sees the set-up instead of the screens the server refuses, then the console', async () => {
    signedInAs();
    serveDashboard();
    serveApp(aSecondFactorStatus({ companyRequires: true, enrolmentRequired: true }));
    const refusal = () =>
      fail(403, 'Your company requires an authenticator app or a passkey. Set one up to continue.');
    server.use(
      http.get(api('dashboard/summary'), refusal),
      http.get(api('virtualMachines/GetDashboardData'), refusal),
    );
    const { user } = await renderApp('/');

    expect(
      await screen.findByRole('heading', { name: 'Set up two-step sign-in' }, slow),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign out' })).toHaveAttribute('href', '/logout');
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Set up authenticator app' }));
    await screen.findByLabelText('Setup key');
    await user.click(slots()[0]!);
    await user.keyboard('123456');
    // The server answers again once the app is on.
    serveDashboard();
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    await user.click(
      await screen.findByRole('checkbox', { name: 'I have saved my recovery codes' }),
    );
    await user.click(screen.getByRole('button', { name: 'Done' }));

    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
  }, 30_000);
});
