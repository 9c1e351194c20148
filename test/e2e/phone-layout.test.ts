import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../src/api/contract/roles';
import { teamMessages } from '../../src/api/contract/teams';
import { apiSession, eventually, smallUbuntuOrder, type ApiCall } from './support/api-session';
import { launchChromium, screenshot } from './support/browser';
import { signIn } from './support/journey';
import { overflowOf } from './support/layout';
import { startServer, type RunningServer } from './support/server-process';

const ADMIN = { email: 'phone-admin@example.com', password: 'Phone!Layout-Passw0rd' };
const VM_NAME = 'phone-web-server-with-a-long-name';
const LONG_TEAM = 'Customer Success and Professional Services Operations Team for EMEA';
const WEBHOOK_URL = 'http://127.0.0.1:9/hooks/launchpad-phone-layout-receiver';

/**
 * Whether the page's title is clamped or clipped, or wraps in a narrow column beside the page's
 * action (squeezed), and the list filters (search boxes and dropdowns outside table cells and
 * dialogs) whose value or placeholder does not fit their box.
 */
function cutOf(page: Page) {
  return page.evaluate<{ title: boolean; squeezed: boolean; cutFilters: string[] }>(`(() => {
    const h = document.querySelector('h2');
    const title = !!h && (h.scrollHeight > h.clientHeight + 1 || h.scrollWidth > h.clientWidth + 1);
    const box = h?.getBoundingClientRect();
    const lines = h ? Math.round(box.height / parseFloat(getComputedStyle(h).lineHeight)) : 0;
    const squeezed = lines > 1 && box.width < innerWidth * 0.6;
    const measure = document.createElement('canvas').getContext('2d');
    const cut = (input) => {
      const style = getComputedStyle(input);
      measure.font = style.font;
      const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return measure.measureText(input.value || input.placeholder || '').width > room + 1;
    };
    const cutFilters = [...document.querySelectorAll('input[type=search], input.mantine-Select-input')]
      .filter((input) => !input.closest('td, [role=dialog]') && input.getBoundingClientRect().width > 0)
      .filter(cut)
      .map((input) => input.getAttribute('aria-label') || input.getAttribute('placeholder') || input.value);
    return { title, squeezed, cutFilters };
  })()`);
}

/** The control's box lies wholly inside the viewport's width. */
async function expectWithinViewport(page: Page, name: RegExp) {
  const control = page.getByRole('button', { name }).or(page.getByRole('link', { name })).first();
  await control.waitFor();
  const box = (await control.boundingBox())!;
  const width = page.viewportSize()!.width;
  expect.soft(box.x, `${name} starts inside the viewport`).toBeGreaterThanOrEqual(0);
  expect.soft(box.x + box.width, `${name} ends inside the viewport`).toBeLessThanOrEqual(width);
}

/**
 * Issue 35, point 1 and two rows of its table: on a 390 px phone no page scrolls sideways and
 * every list's row action is on screen; at 1280 px the column headers stay on one line in one
 * casing, and toasts leave the sidebar's user card visible.
 */
describe('the console on a phone and a desktop, in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let call: ApiCall;
  let vmId: number;
  let networkId: number;
  let teamId: number;
  let longTeamId: number;
  let userId: number;
  let adminId: number;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({
        BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
        BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
        // The webhook below points at this machine (nothing listens there).
        WEBHOOK_ALLOW_PRIVATE: 'true',
      }),
      launchChromium(),
    ]);
    call = await apiSession(server, ADMIN);
    ({ teamId } = await call<{ teamId: number }>('POST', '/teams/create', {
      name: 'Phone Platform Team',
    }));
    ({ teamId: longTeamId } = await call<{ teamId: number }>('POST', '/teams/create', {
      name: LONG_TEAM,
    }));
    const order = await smallUbuntuOrder(call);
    ({
      ids: [vmId],
    } = (await call<{ ids: number[] }>('POST', '/virtualMachines/create', {
      ...order,
      name: VM_NAME,
      numberOfInstances: 1,
      teamId,
      allocatePublicIp: true,
    })) as { ids: [number] });
    ({ id: networkId } = await call<{ id: number }>('POST', '/networks/create', {
      name: 'phone-private-network',
      regionId: order.regionId,
      cidrBlock: '10.62.0.0/24',
      networkType: 'custom',
    }));
    await call('POST', '/users/create', {
      email: 'phone-operator@example.com',
      roleId: ROLE.operator,
      teamIds: [teamId],
    });
    const users = await call<{ data: { id: number; email: string }[] }>(
      'GET',
      '/users/list?page=1&rowsPerPage=10',
    );
    ({ id: adminId } = await call<{ id: number }>('GET', '/users/me'));
    await call('POST', '/webhooks/create', { url: WEBHOOK_URL, events: ['vm.created'] });
    // A VM still being built cannot be edited: its edit page would send the walk back.
    await eventually(
      async () =>
        (await call<{ status: string }>('GET', `/virtualMachines/details/${vmId}`)).status ===
        'Running',
      120,
      'the VM to run',
    );
    await call('POST', '/apiTokens/create', {
      name: 'phone deploy token with a long name',
      expiresAt: new Date(Date.now() + 7 * 24 * 3600_000).toISOString(),
      access: 'readWrite',
    });
    userId = users.data.find((u) => u.email === 'phone-operator@example.com')!.id;
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function newPage(width: number, height: number, errors: string[]) {
    const context = await browser.newContext({ viewport: { width, height } });
    const page = await context.newPage();
    page.on('pageerror', (err) => errors.push(err.message));
    return page;
  }

  it('at 390x844 no page scrolls sideways and every row action is on screen', async () => {
    const errors: string[] = [];
    const page = await newPage(390, 844, errors);
    await signIn(page, server, '/', ADMIN);

    const visit = async (
      path: string,
      heading: string | RegExp,
      rowAction?: RegExp,
      shot = path.replace(/[^a-z0-9]+/gi, '-'),
    ) => {
      await page.goto(`${server.url}${path}`);
      await page.getByRole('heading', { level: 2, name: heading }).first().waitFor();
      if (rowAction)
        await page
          .getByRole('button', { name: rowAction })
          .or(page.getByRole('link', { name: rowAction }))
          .first()
          .waitFor();
      await page.waitForLoadState('networkidle');
      await screenshot(page, `phone${shot}`);
      const overflow = await overflowOf(page);
      // Soft: one run names every page that does not fit.
      expect.soft(overflow, `${path} fits 390 px`).toEqual({
        document: 0,
        tables: overflow.tables.map(() => 0),
      });
      if (rowAction) await expectWithinViewport(page, rowAction);
      expect.soft(await cutOf(page), `${path}: title and filters are not cut`).toEqual({
        title: false,
        squeezed: false,
        cutFilters: [],
      });
    };

    await visit('/', 'Dashboard');
    await page.getByRole('tab', { name: 'Teams' }).click();
    await page.getByRole('button', { name: 'Delete Phone Platform Team' }).waitFor();
    expect(await overflowOf(page)).toMatchObject({ document: 0 });
    await expectWithinViewport(page, /^Delete Phone Platform Team$/);

    await visit('/virtualMachines', 'Virtual Machines', new RegExp(`^Details of ${VM_NAME}$`));
    await visit(`/virtualMachineDetails/${vmId}`, VM_NAME);
    await visit(`/virtualMachineDetails/${vmId}/edit`, /Edit/);
    await visit('/networks', 'Networks', /^Details of phone-private-network$/);
    await visit(`/networks/${networkId}`, 'phone-private-network');
    await visit('/teams', 'Teams', /^Delete Phone Platform Team$/);
    await visit(`/team?id=${teamId}`, /Phone Platform Team/);
    await visit(`/team?id=${longTeamId}`, LONG_TEAM, undefined, '-team-long-name');
    await visit('/users', 'Users', /^Delete /);
    await visit(`/user?id=${userId}`, /./);
    await visit(`/user?id=${adminId}`, /./, undefined, '-profile');
    await visit(
      '/settings',
      'Settings',
      new RegExp(`^Delete ${WEBHOOK_URL}$`),
      '-settings-webhooks',
    );
    await visit(
      '/settings?tab=apiTokens',
      'Settings',
      /^Revoke phone deploy token with a long name$/,
      '-settings-tokens',
    );
    await visit('/createEditTeam', /Create Team/);
    await visit('/?tab=activity', 'Dashboard', undefined, '-activity');
    await visit('/support', /Support|Frequently/);
    await visit('/createVirtualMachine', /Create Virtual Machine/);
    await visit('/createNetwork', /Create Network/);

    // The team wizard's tables: its members to add, then their permissions.
    const wizardStep = async (table: string, shot: string) => {
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByRole('table', { name: table }).waitFor();
      await page.waitForLoadState('networkidle');
      await screenshot(page, `phone-${shot}`);
      expect.soft(await overflowOf(page), `the wizard's ${table} fit 390 px`).toEqual({
        document: 0,
        tables: (await overflowOf(page)).tables.map(() => 0),
      });
    };
    await visit(`/createEditTeam?id=${teamId}`, /Edit Phone Platform Team/, undefined, '-wizard');
    await wizardStep('Available Users', 'wizard-members');
    await wizardStep('Team Member Permissions', 'wizard-permissions');

    // Dialogs and drawers fit too: the delivery log, and a delete confirmed by typing the name.
    const fits = async (what: string, locator: ReturnType<Page['getByRole']>) => {
      await locator.waitFor();
      await page.waitForTimeout(300); // the entrance transition
      await screenshot(page, `phone-${what}`);
      const box = (await locator.boundingBox())!;
      expect.soft(box.x, `${what} starts inside the viewport`).toBeGreaterThanOrEqual(0);
      expect.soft(box.x + box.width, `${what} ends inside the viewport`).toBeLessThanOrEqual(390);
      expect.soft(await overflowOf(page), `${what}: nothing scrolls sideways`).toMatchObject({
        document: 0,
      });
    };
    await page.goto(`${server.url}/settings`);
    await page.getByRole('button', { name: `Delivery log of ${WEBHOOK_URL}` }).click();
    await fits('delivery-log', page.getByRole('dialog'));
    await page.keyboard.press('Escape');
    await page.goto(`${server.url}/virtualMachineDetails/${vmId}`);
    await page
      .getByRole('button', { name: /^Delete/ })
      .last()
      .click();
    await fits('delete-vm-dialog', page.getByRole('dialog'));
    await page.keyboard.press('Escape');

    expect(errors).toEqual([]);
  }, 180_000);
  /** Each visible column header: its text as drawn, and whether any of its words wrapped. */
  const headersOf = (page: Page) =>
    page.evaluate<{ text: string; wrapped: boolean }[]>(`(() =>
      [...document.querySelectorAll('th')]
        .filter((th) => th.getBoundingClientRect().width > 1 && th.innerText.trim() !== '')
        .map((th) => {
          const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
          let wrapped = false;
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const range = document.createRange();
            range.selectNodeContents(node);
            const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
            if (tops.size > 1) wrapped = true;
          }
          return { text: th.innerText.trim(), wrapped };
        }))()`);

  it('at 1280x800 headers keep one line and one casing, and toasts leave the user card free', async () => {
    const errors: string[] = [];
    const page = await newPage(1280, 800, errors);
    await signIn(page, server, '/', ADMIN);

    const lists: [string, RegExp][] = [
      ['/', /^Dashboard$/],
      ['/virtualMachines', /^Virtual Machines$/],
      ['/networks', /^Networks$/],
      [`/networks/${networkId}`, /phone-private-network/],
      ['/teams', /^Teams$/],
      [`/team?id=${teamId}`, /Phone Platform Team/],
      ['/users', /^Users$/],
      [`/user?id=${adminId}`, /./],
      ['/settings', /^Settings$/],
      [`/virtualMachineDetails/${vmId}`, new RegExp(VM_NAME)],
    ];
    const seen: string[] = [];
    for (const [path, heading] of lists) {
      await page.goto(`${server.url}${path}`);
      await page.getByRole('heading', { level: 2, name: heading }).first().waitFor();
      await page.getByRole('columnheader').first().waitFor();
      await page.waitForLoadState('networkidle');
      for (const header of await headersOf(page)) {
        seen.push(header.text);
        expect.soft(header.wrapped, `${path}: "${header.text}" stays on one line`).toBe(false);
        expect
          .soft(header.text, `${path}: "${header.text}" in capitals like every header`)
          .toBe(header.text.toUpperCase());
      }
    }
    // The headers the issue names were looked at.
    expect(seen.map((text) => text.toUpperCase())).toEqual(
      expect.arrayContaining(['RAM (GB)', 'CURRENT MONTH', 'CONNECTED VMS']),
    );

    // A toast (a team renamed) shows away from the sidebar's user card.
    await page.goto(`${server.url}/team?id=${teamId}`);
    const form = page.getByRole('form', { name: 'Team Name' });
    await form.getByRole('textbox', { name: 'Team Name' }).fill('Phone Platform Team 2');
    await form.getByRole('button', { name: 'Save' }).click();
    const toast = page.getByRole('alert').filter({ hasText: teamMessages.updated });
    await toast.waitFor();
    await page.waitForTimeout(400); // the toast's entrance transition
    await screenshot(page, 'desktop-toast');
    const card = page.locator('.mantine-AppShell-navbar .mantine-Avatar-root').locator('..');
    const [toastBox, cardBox] = [(await toast.boundingBox())!, (await card.boundingBox())!];
    const overlaps =
      toastBox.x < cardBox.x + cardBox.width &&
      cardBox.x < toastBox.x + toastBox.width &&
      toastBox.y < cardBox.y + cardBox.height &&
      cardBox.y < toastBox.y + toastBox.height;
    expect(overlaps, 'the toast covers the user card').toBe(false);

    expect(errors).toEqual([]);
  }, 180_000);
});
