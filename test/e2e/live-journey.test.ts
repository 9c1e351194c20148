import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../src/api/contract/roles';
import { openEventStream } from '../server/support/event-stream';
import {
  apiSession,
  apiToken,
  operatorCalls,
  smallUbuntuOrder,
  type ApiCall,
} from './support/api-session';
import { launchChromium, screenshot } from './support/browser';
import { activateAccount, signIn, type Credentials } from './support/journey';
import { startServer, type RunningServer } from './support/server-process';

const OPERATOR_TOKEN = 'e2e-live-operator-token-0123456789abc';
const ADMIN = { email: 'live-admin@example.com', password: 'Live!Journey-Passw0rd' };
const OPERATOR = { email: 'live-operator@example.com', password: 'Live!Journey-Operat0r' };
const STRANGER = { email: 'live-stranger@other.example', password: 'Live!Journey-Strang3r' };

/**
 * Two people of one company in two browsers, and one of another company in a third: what one does
 * appears on the other's screen without a click, nothing reaches the other company, a dropped
 * stream catches up when it comes back, and a failed operation can be read in the history.
 */
describe('live updates and activity history, in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let admin: ApiCall;
  let teamId: number;
  let asOperator: ReturnType<typeof operatorCalls>;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({
        BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
        BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
        OPERATOR_TOKEN,
        SIM_PROVISION_SECONDS: '3',
        SIM_ACTION_SECONDS: '2',
      }),
      launchChromium(),
    ]);
    admin = await apiSession(server, ADMIN);
    asOperator = operatorCalls(server, OPERATOR_TOKEN);
    ({ teamId } = await admin<{ teamId: number }>('POST', '/teams/create', { name: 'Web' }));
    await admin('POST', '/users/create', {
      email: OPERATOR.email,
      roleId: ROLE.operator,
      teamIds: [teamId],
    });
    await activateAccount(server, OPERATOR, { firstName: 'Otto', lastName: 'Operator' });
    await asOperator('/imports/distributer', {
      items: [{ externalId: 'live-dist', name: 'Live Distribution', email: 'ops@live.example' }],
    });
    await asOperator('/imports/reseller', {
      items: [
        {
          externalId: 'live-res',
          distributerExternalId: 'live-dist',
          name: 'Live Reseller',
          email: 'reseller@live.example',
        },
      ],
    });
    await asOperator('/imports/company', {
      items: [
        {
          externalId: 'live-other',
          resellerExternalId: 'live-res',
          name: 'Other Corp',
          admin: { email: STRANGER.email, firstName: 'Sam', lastName: 'Stranger' },
        },
      ],
    });
    await activateAccount(server, STRANGER, { firstName: 'Sam', lastName: 'Stranger' });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const errors: string[] = [];
  async function open(credentials: Credentials): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.on('pageerror', (err) => errors.push(err.message));
    await signIn(page, server, '/', credentials);
    return { context, page };
  }

  it('one browser acts, the other sees it; the other company sees nothing', async () => {
    const adminBrowser = await open(ADMIN);
    const operatorBrowser = await open(OPERATOR);
    const strangerBrowser = await open(STRANGER);
    for (const { page } of [adminBrowser, operatorBrowser, strangerBrowser]) {
      await page.getByRole('link', { name: 'Virtual Machines', exact: true }).click();
      await page.getByRole('heading', { name: 'Virtual Machines' }).first().waitFor();
    }
    await strangerBrowser.page.getByText('No virtual machines found').waitFor();

    // The Admin orders a VM for the team (through the API); both lists show it, then Running.
    await admin('POST', '/virtualMachines/create', {
      ...(await smallUbuntuOrder(admin)),
      name: 'web-live',
      numberOfInstances: 1,
      teamId,
      allocatePublicIp: true,
    });
    for (const { page } of [adminBrowser, operatorBrowser]) {
      await page.getByRole('row', { name: /web-live/ }).waitFor();
    }
    await operatorBrowser.page
      .getByRole('row', { name: /web-live.*Running/ })
      .waitFor({ timeout: 20_000 });
    await screenshot(operatorBrowser.page, 'live-01-operator-sees-running');

    // The Operator stops it from the details page; the Admin's details page follows.
    await adminBrowser.page.getByRole('link', { name: 'Details of web-live' }).click();
    await adminBrowser.page.getByRole('heading', { name: 'web-live' }).waitFor();
    await operatorBrowser.page.getByRole('link', { name: 'Details of web-live' }).click();
    await operatorBrowser.page.getByRole('button', { name: 'Stop', exact: true }).click();
    await operatorBrowser.page.getByRole('dialog').getByRole('button', { name: 'Stop' }).click();
    await adminBrowser.page
      .getByRole('button', { name: 'Start', exact: true })
      .waitFor({ timeout: 20_000 });
    await screenshot(adminBrowser.page, 'live-02-admin-sees-stopped');

    // The other company never heard of any of it.
    await strangerBrowser.page.waitForTimeout(500);
    expect(await strangerBrowser.page.getByText('web-live').count()).toBe(0);
    await screenshot(strangerBrowser.page, 'live-03-other-company');

    // The Admin's stream drops (the Admin opens the eight streams a user may hold elsewhere,
    // which closes the browser's, and the browser cannot reconnect for a while); meanwhile the
    // Operator starts the VM. When the stream is back, the Admin's screen has caught up.
    await adminBrowser.context.route('**/api/v1/events**', (route) => route.abort());
    const token = await apiToken(server, ADMIN);
    const elsewhere = await Promise.all(
      Array.from({ length: 8 }, () => openEventStream(server.url, token)),
    );
    await adminBrowser.page.getByText(LIVE_PAUSED).waitFor({ timeout: 20_000 });
    await screenshot(adminBrowser.page, 'live-04-stream-down');
    await operatorBrowser.page.getByRole('button', { name: 'Start', exact: true }).click();
    await operatorBrowser.page.getByRole('dialog').getByRole('button', { name: 'Start' }).click();
    await operatorBrowser.page
      .getByRole('button', { name: 'Stop', exact: true })
      .waitFor({ timeout: 20_000 });
    for (const stream of elsewhere) stream.close();
    await adminBrowser.context.unroute('**/api/v1/events**');
    await adminBrowser.page.getByText(LIVE_PAUSED).waitFor({ state: 'detached', timeout: 40_000 });
    await adminBrowser.page
      .getByRole('button', { name: 'Stop', exact: true })
      .waitFor({ timeout: 10_000 });

    // A failed operation, injected into the sim engine, is in the history with its reason, and
    // the Operator, who asked for it from the VM list, gets a toast with the reason.
    await asOperator('/sim/faults', {
      kind: 'fail',
      action: 'reboot',
      message: 'Hypervisor said no',
    });
    await operatorBrowser.page.getByRole('button', { name: 'Reset', exact: true }).click();
    await operatorBrowser.page.getByRole('dialog').getByRole('button', { name: 'Reset' }).click();
    await operatorBrowser.page.getByRole('link', { name: 'Virtual Machines', exact: true }).click();
    // The sim's reboot, its failure and the event's way to the browser: over 20 s on a busy machine.
    await operatorBrowser.page
      .getByText('web-live: Reset failed: Hypervisor said no')
      .waitFor({ timeout: 40_000 });
    await screenshot(operatorBrowser.page, 'live-05-failure-toast');
    // The Activity card of the Admin's page, newest first: the failure, by whom, and why.
    await adminBrowser.page
      .getByRole('row', { name: /Otto Operator\s*Reset\s*Failed\s*Hypervisor said no/ })
      .waitFor({ timeout: 20_000 });
    await screenshot(adminBrowser.page, 'live-06-activity-failure');

    // The Admin reads the company's history in the Dashboard, failures only.
    await adminBrowser.page.getByRole('link', { name: 'Dashboard' }).click();
    await adminBrowser.page.getByRole('tab', { name: 'Activity' }).click();
    await adminBrowser.page.getByRole('combobox', { name: 'Outcome' }).click();
    await adminBrowser.page.getByRole('option', { name: 'Failed' }).click();
    await adminBrowser.page.waitForURL(/outcome=failed/);
    await adminBrowser.page
      .getByRole('row', { name: /web-live.*Otto Operator.*Reset.*Hypervisor said no/ })
      .waitFor();
    // The unfiltered page stays on screen until the filtered one arrives: then the failure alone.
    await expect
      .poll(() => adminBrowser.page.getByRole('row').count(), { timeout: 10_000 })
      .toBe(2);
    await screenshot(adminBrowser.page, 'live-07-dashboard-activity');

    expect(errors).toEqual([]);
    for (const { context } of [adminBrowser, operatorBrowser, strangerBrowser]) {
      await context.close();
    }
  });
});

/** What the console's header says while its stream is down. */
const LIVE_PAUSED = /Live updates paused/;
