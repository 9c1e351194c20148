import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkIn } from '../server/support/mail';
import { launchChromium, screenshot } from './support/browser';
import { readMail, signIn } from './support/journey';
import { startServer, type RunningServer } from './support/server-process';

const ADMIN = { email: 'team-admin@example.com', password: 'Team!Journey-Passw0rd' };
const VIEWER = { email: 'new.viewer@example.com', password: 'Viewer!Journey-Passw0rd' };
const TEAM = 'Night Shift';

/**
 * The tenancy journey in Chromium: an Admin invites a user, the user activates the account from
 * the e-mail, the Admin puts them in a team as Viewer, and the Viewer signs in and is refused
 * what their role does not allow.
 */
describe('inviting a user and giving them a team role, in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({
        BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
        BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
        SIM_PROVISION_SECONDS: '2',
      }),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function newPage(errors: string[]): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.on('pageerror', (err) => errors.push(err.message));
    return page;
  }

  it('invite -> activate -> Viewer in a team -> VM actions refused as a Viewer', async () => {
    const errors: string[] = [];
    const admin = await newPage(errors);
    await signIn(admin, server, '/', ADMIN);

    // The Admin invites the user.
    await admin.getByRole('link', { name: 'Users' }).click();
    await admin.getByRole('button', { name: 'Create User' }).click();
    await admin.getByRole('heading', { name: 'Add User' }).waitFor();
    await admin.getByLabel('Email Address').fill(VIEWER.email);
    await admin.getByRole('combobox', { name: 'User Role' }).click();
    await admin.getByRole('option', { name: 'Viewer' }).click();
    await screenshot(admin, 'team-01-add-user');
    await admin.getByRole('button', { name: 'Send Invite Email' }).click();
    await admin.getByText(`Completed creating user: ${VIEWER.email}`).waitFor();
    await admin.getByRole('cell', { name: VIEWER.email }).first().waitFor();
    await screenshot(admin, 'team-02-users');

    // The user activates the account from the e-mail.
    const invitation = await readMail(server, VIEWER.email, /Activate your/);
    const link = linkIn(invitation);
    expect(link.pathname).toBe('/confirmNewUser');
    const viewer = await newPage(errors);
    await viewer.goto(`${server.url}${link.pathname}${link.search}`);
    await viewer.getByLabel('First Name').fill('Vera');
    await viewer.getByLabel('Last Name').fill('Viewer');
    await viewer.getByLabel('New Password', { exact: true }).fill(VIEWER.password);
    await viewer.getByLabel('Confirm Password', { exact: true }).fill(VIEWER.password);
    await viewer.getByRole('button', { name: 'Activate Account' }).click();
    await viewer.getByText('Account Activated!').waitFor();
    await screenshot(viewer, 'team-03-activated');

    // The Admin creates a team and adds the user, who starts as Viewer.
    await admin.getByRole('link', { name: 'Teams' }).click();
    await admin.getByRole('button', { name: 'Create Team' }).click();
    await admin.getByLabel('Team Name').fill(TEAM);
    await admin.getByRole('button', { name: 'Next' }).click();
    await admin.waitForURL(/\/createEditTeam\?id=\d+$/);
    await admin.getByRole('button', { name: 'Add Vera Viewer' }).click();
    await admin.getByRole('button', { name: 'Remove Vera Viewer' }).waitFor();
    await screenshot(admin, 'team-04-build');
    await admin
      .getByRole('group', { name: 'Wizard navigation' })
      .getByRole('button', { name: 'Next' })
      .click();
    await admin.getByRole('combobox', { name: 'Role of Vera Viewer' }).waitFor();
    expect(await admin.getByRole('combobox', { name: 'Role of Vera Viewer' }).inputValue()).toBe(
      'Viewer',
    );
    await screenshot(admin, 'team-05-permissions');
    await admin.getByRole('button', { name: 'Save Permissions' }).click();
    await admin.waitForURL(/\/team\?id=\d+$/);
    await admin.getByRole('cell', { name: VIEWER.email }).waitFor();
    await screenshot(admin, 'team-06-team-page');

    // The member's user page lists the membership with its role.
    await admin.getByRole('cell', { name: VIEWER.email }).click();
    await admin.getByRole('heading', { name: 'Vera Viewer' }).waitFor();
    await admin.getByRole('cell', { name: TEAM, exact: true }).first().waitFor();
    expect(await admin.getByRole('combobox', { name: `Role in ${TEAM}` }).inputValue()).toBe(
      'Viewer',
    );
    await screenshot(admin, 'team-06b-user-page');

    await admin.getByRole('link', { name: 'Teams' }).click();
    const row = admin.getByRole('row', { name: new RegExp(TEAM) });
    await row.waitFor();
    expect(await row.textContent()).toMatch(/Night Shift\s*1\s*0/);
    await screenshot(admin, 'team-07-teams');

    // The Viewer signs in and sees the team, with nothing offered that a Viewer may not do...
    await signIn(viewer, server, '/', VIEWER);
    await viewer.getByRole('link', { name: 'Teams' }).click();
    await viewer.getByRole('cell', { name: TEAM }).click();
    await viewer.waitForURL(/\/team\?id=\d+/);
    const teamId = Number(new URL(viewer.url()).searchParams.get('id'));
    await viewer.getByRole('cell', { name: VIEWER.email }).waitFor();
    expect(
      await viewer.getByRole('textbox', { name: 'Team Name' }).getAttribute('readonly'),
    ).not.toBeNull();
    expect(await viewer.getByRole('button', { name: 'Save' }).count()).toBe(0);
    expect(await viewer.getByRole('button', { name: 'Edit Team' }).count()).toBe(0);
    await screenshot(viewer, 'team-08-viewer-team');

    await viewer.getByRole('link', { name: 'Users' }).click();
    await viewer.getByRole('cell', { name: ADMIN.email }).waitFor();
    expect(await viewer.getByRole('button', { name: /^Delete / }).count()).toBe(0);
    expect(await viewer.getByRole('button', { name: 'Create User' }).count()).toBe(0);
    await screenshot(viewer, 'team-09-viewer-users');

    // ...and the server refuses it when asked anyway, with the Viewer's own session.
    const token = await viewer.evaluate<string | null>(
      "sessionStorage.getItem('token') ?? localStorage.getItem('token')",
    );
    const asViewer = async (method: string, path: string, body: unknown) => {
      const res = await fetch(`${server.url}/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return [res.status, ((await res.json()) as { message: string }).message];
    };
    expect(await asViewer('POST', '/teams/update', { teamId, name: 'Taken Over' })).toEqual([
      403,
      'You do not have permission to do that',
    ]);
    const invite = { email: 'intruder@example.com', roleId: 1, teamIds: [] };
    expect(await asViewer('POST', '/users/create', invite)).toEqual([
      403,
      'Only Admins can do that',
    ]);

    // A VM of the team: the Viewer sees it, with no action offered, and the server refuses one.
    const adminToken = await admin.evaluate<string | null>(
      "sessionStorage.getItem('token') ?? localStorage.getItem('token')",
    );
    const asAdmin = async (path: string) => {
      const res = await fetch(`${server.url}/api/v1${path}`, {
        headers: { authorization: `Bearer ${adminToken}` },
      });
      return ((await res.json()) as { data: { id: number; name: string }[] }).data;
    };
    const [us] = (await asAdmin('/virtualMachines/listCountries')).filter(
      (c) => c.name === 'United States',
    );
    const [la] = await asAdmin(`/virtualMachines/listRegions/${us!.id}`);
    const [image] = await asAdmin(`/virtualMachines/listImages/${la!.id}`);
    const [provider] = await asAdmin(
      `/virtualMachines/listProviders/${la!.id}?imageId=${image!.id}&configurationId=3`,
    );
    const created = await fetch(`${server.url}/api/v1/virtualMachines/create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        regionId: la!.id,
        imageId: image!.id,
        configurationId: 3,
        providerId: provider!.id,
        name: 'night-web',
        numberOfInstances: 1,
        teamId,
        allocatePublicIp: false,
      }),
    });
    const vmId = ((await created.json()) as { data: { ids: number[] } }).data.ids[0]!;
    await viewer.getByRole('link', { name: 'Virtual Machines' }).click();
    await viewer.getByRole('row', { name: /night-web.*Running/ }).waitFor({ timeout: 30_000 });
    await viewer.getByRole('link', { name: 'Details of night-web' }).click();
    await viewer.getByRole('heading', { name: 'night-web' }).waitFor();
    for (const action of ['Stop', 'Start', 'Reset', 'Upgrade', 'Edit VM', 'Delete']) {
      expect(await viewer.getByRole('button', { name: action, exact: true }).count()).toBe(0);
    }
    expect(await viewer.getByRole('button', { name: 'Download Private Key' }).count()).toBe(0);
    await screenshot(viewer, 'team-10-viewer-vm');
    expect(await asViewer('POST', `/virtualMachines/stop/${vmId}`, {})).toEqual([
      403,
      'You do not have permission to do that',
    ]);
    expect(await asViewer('DELETE', `/virtualMachines/delete/${vmId}`, {})).toEqual([
      403,
      'You do not have permission to do that',
    ]);
    await viewer.reload();
    await viewer.getByRole('heading', { name: 'night-web' }).waitFor();
    await viewer.getByText('Running', { exact: true }).waitFor();

    // Nothing changed on the server.
    await admin.reload();
    await admin.getByRole('row', { name: /Night Shift/ }).waitFor();
    expect(await admin.getByRole('cell', { name: 'Taken Over' }).count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
