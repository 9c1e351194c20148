import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiSession, smallUbuntuOrder } from './support/api-session';
import { launchChromium, screenshot } from './support/browser';
import { signIn } from './support/journey';
import { startServer, type RunningServer } from './support/server-process';

const ADMIN = { email: 'dashboard-admin@example.com', password: 'Dashboard!Journey-Passw0rd' };
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** The Activity tab's search and filters, by their accessible names. */
const FILTERS = ['Search resources and people', 'Resource type', 'Actor', 'Outcome', 'From', 'To'];

interface Measured {
  name: string;
  top: number;
  left: number;
  right: number;
  placeholderWidth: number;
  room: number;
}

/**
 * No dead ends and a Dashboard that orients, in Chromium: an unknown address signed out and signed
 * in, each with its way back; the figures of a new company moving as its first VM comes; the
 * Activity tab's filters laid out at a desktop's and a phone's width.
 */
describe('the Dashboard and the ways back, in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({
        BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
        BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
        SIM_PROVISION_SECONDS: '3',
      }),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const errors: string[] = [];
  async function newPage(viewport = DESKTOP): Promise<Page> {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    page.on('pageerror', (err) => errors.push(err.message));
    return page;
  }

  it('leads from an unknown address back to the sign-in page, and to the dashboard once signed in', async () => {
    const visitor = await newPage();
    await visitor.goto(`${server.url}/doesNotExist`);
    await visitor.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(await visitor.getByText('/doesNotExist').isVisible()).toBe(true);
    expect(await visitor.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
    await screenshot(visitor, 'dashboard-01-not-found-signed-out');
    await visitor.getByRole('link', { name: 'Go to Login' }).click();
    await visitor.getByRole('heading', { name: 'Login' }).waitFor();
    expect(new URL(visitor.url()).pathname).toBe('/login');
    await visitor.context().close();

    const page = await newPage();
    await signIn(page, server, '/', ADMIN);
    await page.goto(`${server.url}/doesNotExist`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    // Inside the signed-in layout: the sidebar is there.
    expect(
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Virtual Machines', exact: true })
        .isVisible(),
    ).toBe(true);
    await screenshot(page, 'dashboard-02-not-found-signed-in');
    await page.getByRole('link', { name: 'Go to Dashboard' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await page.context().close();
    expect(errors).toEqual([]);
  });

  it("moves a new company's figures as its first VM comes, without a reload", async () => {
    const page = await newPage();
    await signIn(page, server, '/', ADMIN);
    const figure = (name: string) =>
      page.getByRole('region', { name: 'Overview' }).getByRole('link', { name });
    await page.getByRole('heading', { name: 'Create your first virtual machine' }).waitFor();
    await figure('0 VMs running').waitFor();
    await figure('0 Networks').waitFor();
    await screenshot(page, 'dashboard-03-new-company');

    const admin = await apiSession(server, ADMIN);
    await admin('POST', '/virtualMachines/create', {
      ...(await smallUbuntuOrder(admin)),
      name: 'first',
      numberOfInstances: 1,
      teamId: null,
      allocatePublicIp: true,
    });

    // The live events bring the figures along: the VM provisions, runs, has its address.
    await figure('1 VMs running').waitFor({ timeout: 30_000 });
    await figure('1 Networks').waitFor();
    await figure('1 Public IPs in use').waitFor();
    // The prompt gives way to the usage, which now counts the VM.
    await page.getByRole('table', { name: 'Usage by VM size' }).waitFor();
    expect(await page.getByText('Create your first virtual machine').count()).toBe(0);
    await screenshot(page, 'dashboard-04-first-vm');

    // Each figure leads into its list, filtered as it counted.
    await figure('1 VMs running').click();
    await page.waitForURL(`${server.url}/virtualMachines?status=running`);
    await page.getByRole('row', { name: /first/ }).waitFor();
    await page.context().close();
    expect(errors).toEqual([]);
  });

  /**
   * The Activity tab's filters, measured: no placeholder wider than its box, no filter alone on a
   * row (the "To" date was), nothing past the window's edge.
   */
  async function activityFilters(page: Page) {
    await page.locator('input[aria-label="To"]').waitFor();
    // Each control's box, and its placeholder's width in its own font against the room inside.
    return page.evaluate<{ pageWidth: number; controls: Measured[] }>(`(() => {
      const canvas = document.createElement('canvas').getContext('2d');
      return {
        pageWidth: document.documentElement.scrollWidth,
        controls: ${JSON.stringify(FILTERS)}.map((name) => {
          const input = document.querySelector('input[aria-label="' + name + '"]');
          const style = getComputedStyle(input);
          canvas.font = style.fontWeight + ' ' + style.fontSize + ' ' + style.fontFamily;
          const box = input.getBoundingClientRect();
          return {
            name,
            top: Math.round(box.top),
            left: box.left,
            right: box.right,
            placeholderWidth: input.placeholder ? canvas.measureText(input.placeholder).width : 0,
            room:
              input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
          };
        }),
      };
    })()`);
  }

  /** What is wrong with the filters' layout at the window's width, once drawn. */
  async function layoutProblems(page: Page, width: number) {
    const { pageWidth, controls } = await activityFilters(page);
    const problems: string[] = [];
    if (pageWidth > width) problems.push(`the page is ${pageWidth} px wide`);
    for (const c of controls) {
      if (c.placeholderWidth > c.room) problems.push(`${c.name}'s placeholder is cut`);
      if (c.left < 0 || c.right > width) problems.push(`${c.name} is past the edge`);
    }
    const to = controls.at(-1)!;
    if (controls.filter((c) => c.top === to.top).length < 2) problems.push('"To" is alone');
    return problems;
  }

  it('lays the Activity filters out whole at 1280×800 and stacks them on a phone', async () => {
    const page = await newPage();
    await signIn(page, server, '/', ADMIN);
    await page.getByRole('tab', { name: 'Activity' }).click();
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      // Measured once the layout has followed the new width (the sidebar docks or hides).
      await expect
        .poll(() => layoutProblems(page, viewport.width), { timeout: 10_000 })
        .toEqual([]);
      await screenshot(page, `dashboard-05-activity-${viewport.width}`);
    }
    await page.context().close();
    expect(errors).toEqual([]);
  });
});
