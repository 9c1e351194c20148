import type { Page } from 'playwright-core';
import type { ActivityEvent } from '../../src/api/contract/activity';
import { ROLE } from '../../src/api/contract/roles';
import { apiSession, eventually, smallUbuntuOrder } from '../../test/e2e/support/api-session';
import { launchChromium } from '../../test/e2e/support/browser';
import { activateAccount, signIn } from '../../test/e2e/support/journey';
import { startServer } from '../../test/e2e/support/server-process';
import { median } from './stats';

const ADMIN = { email: 'live-admin@example.com', password: 'Live!Bench-Passw0rd' };
const OPERATOR = { email: 'live-operator@example.com', password: 'Live!Bench-Operat0r' };
const CHANGES = Number(process.env.LIVE_CHANGES ?? 50);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

/**
 * The delay from the engine's change to a second browser's screen: an Operator stops and starts a
 * VM from one browser context while an Admin watches its details page in another; the engine's
 * changes (Stopping -> Stopped, Starting -> Running, made by the reconciler) are the log's events,
 * and the screen's are the times the Admin's status badge changed (a MutationObserver in the page).
 * The production server as `npm start` runs it, on PGlite, with the sim engine's short timings.
 */
async function main() {
  const server = await startServer({
    BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
    BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
    SIM_PROVISION_SECONDS: '1',
    SIM_ACTION_SECONDS: '0.2',
  });
  const browser = await launchChromium();
  try {
    const admin = await apiSession(server, ADMIN);
    const { teamId } = await admin<{ teamId: number }>('POST', '/teams/create', { name: 'Live' });
    await admin('POST', '/users/create', {
      email: OPERATOR.email,
      roleId: ROLE.operator,
      teamIds: [teamId],
    });
    await activateAccount(server, OPERATOR, { firstName: 'Otto', lastName: 'Operator' });
    const { ids } = await admin<{ ids: number[] }>('POST', '/virtualMachines/create', {
      ...(await smallUbuntuOrder(admin)),
      name: 'live',
      numberOfInstances: 1,
      teamId,
      allocatePublicIp: false,
    });
    const vmId = ids[0]!;
    const status = async () =>
      (await admin<{ status: string }>('GET', `/virtualMachines/details/${vmId}`)).status;
    await eventually(async () => (await status()) === 'Running', 60, 'the VM to run');

    const operatorContext = await browser.newContext();
    const adminContext = await browser.newContext();
    const operatorPage = await operatorContext.newPage();
    const adminPage = await adminContext.newPage();
    await signIn(operatorPage, server, '/', OPERATOR);
    await signIn(adminPage, server, '/', ADMIN);
    await adminPage.goto(`${server.url}/virtualMachineDetails/${vmId}`);
    await adminPage.getByRole('heading', { name: 'live' }).waitFor();
    await watchStatus(adminPage);
    // The stream opens with the page; the changes start once it has surely done so.
    await adminPage.waitForTimeout(1_000);

    const seen = async (wanted: string) => {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const changes = await screenChanges(adminPage);
        if (changes.at(-1)?.status === wanted) return;
        if (Date.now() > deadline) throw new Error(`the second browser never showed ${wanted}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const act = async (action: 'stop' | 'start') => {
      const res = await operatorContext.request.post(
        `${server.url}/api/v1/virtualMachines/${action}/${vmId}`,
      );
      if (res.status() !== 200) throw new Error(`${action}: ${res.status()} ${await res.text()}`);
    };
    for (let i = 0; i < CHANGES / 2; i += 1) {
      await act('stop');
      await seen('Stopped');
      await act('start');
      await seen('Running');
    }

    const screen = await screenChanges(adminPage);
    const events: ActivityEvent[] = [];
    for (let page = 1; ; page += 1) {
      const { data } = await admin<{ data: ActivityEvent[] }>(
        'GET',
        `/activity/list?subjectType=vm&subjectId=${vmId}&sortDescending=false&rowsPerPage=100&page=${page}`,
      );
      events.push(...data);
      if (data.length < 100) break;
    }
    // Only what happened while the second browser watched (not the VM's provisioning).
    const watchedFrom = screen[0]!.at;
    const delays = (by: 'system' | 'user') => {
      const changes = events.filter(
        (e) =>
          e.action === 'vm.status' &&
          e.actor.type === by &&
          Date.parse(String(e.occurredAt)) >= watchedFrom &&
          ['Stopping', 'Stopped', 'Starting', 'Running'].includes(String(e.detail.to)),
      );
      // Each change is the first time the screen showed its status after it happened.
      return changes
        .map((e) => {
          const at = Date.parse(String(e.occurredAt));
          const shown = screen.find((s) => s.status === e.detail.to && s.at >= at);
          return shown ? shown.at - at : undefined;
        })
        .filter((d): d is number => d !== undefined);
    };
    const engine = delays('system');
    const requested = delays('user');
    const line = (label: string, values: number[]) =>
      `${label}: median ${median(values).toFixed(0)} ms, p99 ${percentile(values, 99).toFixed(0)} ms over ${values.length} changes`;
    console.warn(
      [
        line("engine's change -> second browser's screen", engine),
        line("another user's request -> second browser's screen", requested),
      ].join('\n'),
    );
  } finally {
    await browser.close();
    await server.stop();
  }
}

/**
 * Records, in the page, each time the VM's status badge (the page header's) shows another status.
 * Written as page source: these scripts are not compiled with the DOM's types.
 */
const WATCH_STATUS = `(() => {
  const statuses = ['Running', 'Stopped', 'Starting', 'Stopping', 'Error', 'Shutoff'];
  const changes = [];
  window.statusChanges = changes;
  const current = () =>
    [...document.querySelectorAll('.mantine-Badge-label')]
      .map((el) => (el.textContent || '').trim())
      .find((text) => statuses.includes(text));
  let last = current();
  if (last) changes.push({ status: last, at: Date.now() });
  new MutationObserver(() => {
    const now = current();
    if (now && now !== last) {
      last = now;
      changes.push({ status: now, at: Date.now() });
    }
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
})()`;

const watchStatus = (page: Page) => page.evaluate(WATCH_STATUS);

const screenChanges = (page: Page) =>
  page.evaluate<{ status: string; at: number }[]>('window.statusChanges');

await main();
