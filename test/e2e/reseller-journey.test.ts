import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brandColorMessages } from '../../src/api/contract/brand-color';
import { resellerSettingsMessages } from '../../src/api/contract/reseller-settings';
import { usageCsvColumns } from '../../src/api/contract/usage';
import { startResellerSite, type ResellerSite } from './support/reseller-site';
import { launchChromium, screenshot } from './support/browser';
import { operatorCalls } from './support/api-session';
import { activateAccount, readMail, signIn, type Credentials } from './support/journey';
import { overflowOf } from './support/layout';
import { startServer, type RunningServer } from './support/server-process';

const OPERATOR_TOKEN = 'e2e-operator-token-0123456789abcdef';
const SUPPORT_EMAIL = 'helpdesk@skyline.example';
const BOOTSTRAP = { email: 'first-admin@example.com', password: 'First!Admin-Passw0rd' };
const RESELLER: Credentials = {
  email: 'staff@skyline.example',
  password: 'Staff!Journey-Passw0rd',
};
const CUSTOMER: Credentials = { email: 'it@acme.example', password: 'Acme!Journey-Passw0rd' };

/**
 * Dashboard, Support and Order Services in Chromium, as a reseller's staff and as a customer,
 * both created the way an operator creates them: the import API, then the e-mailed activation.
 */
describe('dashboard, support and order services, in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let site: ResellerSite;
  let api: ReturnType<typeof operatorCalls>;

  beforeAll(async () => {
    site = await startResellerSite();
    [server, browser] = await Promise.all([
      startServer({
        BOOTSTRAP_ADMIN_EMAIL: BOOTSTRAP.email,
        BOOTSTRAP_ADMIN_PASSWORD: BOOTSTRAP.password,
        OPERATOR_TOKEN,
        SUPPORT_EMAIL,
        // The domains a reseller adds in its settings are taken without a DNS lookup (offline).
        RESELLER_DOMAIN_CHECK: 'off',
        LOG_LEVEL: 'warn',
      }),
      launchChromium(),
    ]);
    api = operatorCalls(server, OPERATOR_TOKEN);
    await api('/imports/distributer', {
      items: [
        {
          externalId: 'dist-north',
          name: 'Northwind Distribution',
          email: 'ops@northwind.example',
        },
      ],
    });
    await api('/imports/reseller', {
      items: [
        {
          externalId: 'res-skyline',
          distributerExternalId: 'dist-north',
          name: 'Skyline Hosting Ltd',
          email: RESELLER.email,
          resellerName: 'Skyline Cloud',
          logoUrl: `${site.url}/logo.svg`,
          tabLogoUrl: `${site.url}/favicon.svg`,
          orderUrls: {
            newCustomer: `${site.url}/orders/new-customer`,
            accountChanges: `${site.url}/orders/account-changes`,
          },
        },
      ],
    });
    await api('/imports/company', {
      items: [
        {
          externalId: 'cust-acme',
          resellerExternalId: 'res-skyline',
          name: 'Acme Corporation',
          admin: { email: CUSTOMER.email, firstName: 'Ada', lastName: 'Acme' },
        },
      ],
    });
    await activateAccount(server, RESELLER, { firstName: 'Rita', lastName: 'Reseller' });
    await activateAccount(server, CUSTOMER, { firstName: 'Ada', lastName: 'Acme' });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await site?.close();
  });

  async function newPage(errors: string[]): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.on('pageerror', (err) => errors.push(err.message));
    return page;
  }

  it("a reseller's staff: branded dashboard, Order Services, and a message to support", async () => {
    const errors: string[] = [];
    const page = await newPage(errors);
    await signIn(page, server, '/', RESELLER);

    // The reseller's branding: tab title and icon, and the logo in the sidebar.
    expect(await page.title()).toBe('Skyline Cloud');
    expect(await page.locator('link#tab-icon').getAttribute('href')).toBe(
      `${site.url}/favicon.svg`,
    );
    await page.getByRole('img', { name: 'Skyline Cloud' }).waitFor();
    // Loaded from the reseller's site, not a broken image.
    await page.waitForFunction(
      'document.querySelector(\'img[alt="Skyline Cloud"]\')?.naturalWidth > 0',
    );

    // The dashboard: its tabs (the usage figures are not checked here) and Order Services.
    expect(await page.getByRole('tab', { name: 'VM Usage' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    // The staff company has no VM yet: the tab offers the first instead of a table of dashes.
    await page.getByRole('heading', { name: 'Create your first virtual machine' }).waitFor();
    await screenshot(page, 'reseller-01-dashboard');
    await page.getByRole('tab', { name: 'Teams' }).click();
    await page.waitForURL(`${server.url}/?tab=teams`);
    await page.getByRole('cell', { name: 'Unassigned' }).waitFor();
    await screenshot(page, 'reseller-02-dashboard-teams');

    await page.getByRole('button', { name: 'Order Services' }).click();
    await page.waitForURL(`${server.url}/orderServices`);
    const newCustomer = page
      .getByRole('region', { name: 'New Customer' })
      .getByRole('link', { name: /Open order form/ });
    expect(await newCustomer.getAttribute('href')).toBe(`${site.url}/orders/new-customer`);
    expect(await newCustomer.getAttribute('target')).toBe('_blank');
    expect(await newCustomer.getAttribute('rel')).toBe('noopener noreferrer');
    const changes = page
      .getByRole('region', { name: 'Account Changes' })
      .getByRole('link', { name: /Open order form/ });
    expect(await changes.getAttribute('href')).toBe(`${site.url}/orders/account-changes`);
    await screenshot(page, 'reseller-03-order-services');

    // The order form opens in a new tab that cannot reach back into the console.
    const [form] = await Promise.all([page.context().waitForEvent('page'), newCustomer.click()]);
    await form.waitForLoadState();
    expect(form.url()).toBe(`${site.url}/orders/new-customer`);
    expect(await form.evaluate<boolean>('window.opener === null')).toBe(true);
    await form.close();
    expect(page.url()).toBe(`${server.url}/orderServices`);

    // Support: the FAQ, one answer at a time, then a message to the support team.
    await page.getByRole('link', { name: 'Support' }).click();
    await page.getByRole('button', { name: 'How do I create a team?' }).waitFor();
    await screenshot(page, 'reseller-04-support');
    await page.getByRole('button', { name: 'What is the acceptable use policy?' }).click();
    await page.getByRole('heading', { name: '7. Reporting violations' }).waitFor();
    await screenshot(page, 'reseller-05-support-open');
    await page.getByRole('button', { name: 'How do I reset my password?' }).click();
    await page
      .getByRole('heading', { name: '7. Reporting violations' })
      .waitFor({ state: 'hidden' });

    await page.getByRole('searchbox', { name: 'Search questions' }).fill('PASSWORD');
    expect(await page.getByRole('button', { name: /\?$/ }).allTextContents()).toEqual([
      'How do I reset my password?',
    ]);
    await page.getByRole('searchbox', { name: 'Search questions' }).fill('');

    await page.getByRole('button', { name: 'Get In Touch' }).click();
    const message = page.getByPlaceholder('Please describe your issue for our support team');
    await message.fill('Please add a Large VM quota for our customer Acme.');
    await page.getByRole('button', { name: 'Send Message' }).click();
    const sent = page.getByRole('button', { name: 'Message sent!' });
    await sent.waitFor();
    expect(await sent.isDisabled()).toBe(true);
    await screenshot(page, 'reseller-06-support-sent');
    await message.press('End');
    await message.pressSequentially(' Thanks!');
    expect(await page.getByRole('button', { name: 'Send Message' }).isEnabled()).toBe(true);

    const mail = await readMail(server, SUPPORT_EMAIL, /Support request/);
    expect(mail.subject).toBe('Support request from Rita Reseller (Skyline Hosting Ltd)');
    expect(mail.text).toContain(`From: Rita Reseller <${RESELLER.email}>`);
    expect(mail.text).toContain('Please add a Large VM quota for our customer Acme.');

    expect(errors).toEqual([]);
  });

  it("a reseller's staff: a new customer, suspended and resumed, on a desktop and a phone", async () => {
    const errors: string[] = [];
    const page = await newPage(errors);
    await signIn(page, server, '/', RESELLER);

    // Customers, from the sidebar, then a new one with its first Admin.
    await page.getByRole('link', { name: 'Customers' }).click();
    await page.waitForURL(`${server.url}/customers`);
    await page.getByRole('heading', { level: 2, name: 'Customers' }).waitFor();
    await page.getByRole('button', { name: 'New customer' }).click();
    await page.waitForURL(`${server.url}/customers/new`);
    const form = page.getByRole('form', { name: 'New customer' });
    await form.getByRole('textbox', { name: 'Company name' }).fill('Globex Phone Test');
    await form.getByRole('textbox', { name: 'First name' }).fill('Gina');
    await form.getByRole('textbox', { name: 'Last name' }).fill('Globex');
    await form.getByRole('textbox', { name: 'Email' }).fill('admin@globex.example');
    await form.getByRole('button', { name: 'Create customer' }).click();
    await page.getByRole('alert').filter({ hasText: 'Customer created' }).waitFor();

    // Its page: the name, its Admin invited, and the danger zone.
    await page.waitForURL(new RegExp(`^${server.url}/customers/\\d+$`));
    const customerUrl = page.url();
    await page.getByRole('heading', { level: 2, name: 'Globex Phone Test' }).waitFor();
    await page.getByText('admin@globex.example').waitFor();
    await page.getByRole('heading', { name: 'Danger zone' }).waitFor();
    await screenshot(page, 'reseller-07-customer');

    // Suspended, once its name is typed.
    await page.getByRole('button', { name: 'Suspend', exact: true }).click();
    const suspendDialog = page.getByRole('dialog', { name: 'Suspend Globex Phone Test?' });
    const confirmSuspend = suspendDialog.getByRole('button', { name: 'Suspend', exact: true });
    expect(await confirmSuspend.isDisabled()).toBe(true);
    await suspendDialog.getByRole('textbox').fill('Globex Phone Test');
    await confirmSuspend.click();
    await suspendDialog.waitFor({ state: 'hidden' });
    const badge = page.getByText('Suspended', { exact: true });
    await badge.waitFor();
    await page.getByRole('button', { name: 'Resume', exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Suspend', exact: true }).count()).toBe(0);
    await screenshot(page, 'reseller-08-customer-suspended');

    // Resumed: no badge, and Suspend is offered again.
    await page.getByRole('button', { name: 'Resume', exact: true }).click();
    const resumeDialog = page.getByRole('dialog', { name: 'Resume Globex Phone Test?' });
    await resumeDialog.getByRole('button', { name: 'Resume', exact: true }).click();
    await resumeDialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Suspend', exact: true }).waitFor();
    await badge.waitFor({ state: 'hidden' });

    // Its usage: nothing yet this month, and the month's CSV for a billing system, downloaded
    // through the API with the session's token.
    const usage = page.getByRole('region', { name: 'Usage' });
    const month = await usage.getByRole('combobox', { name: 'Month' }).inputValue();
    await usage.getByText(`No usage in ${month}`).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      usage.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^usage-\d{4}-\d{2}-globex-phone-test\.csv$/);
    const csv = (await readFile(await download.path(), 'utf8')).trim().split(/\r?\n/);
    expect(csv[0]).toBe(usageCsvColumns.join(','));
    expect(csv.slice(1).map((line) => line.split(',')[0])).toEqual(['total']);

    // Its activity, newest first: the creation, the suspension and the resumption.
    const activity = page.getByRole('table', { name: 'Activity' });
    await activity.getByText('Resume company').waitFor();
    expect(await activity.getByText(/^(Create|Suspend|Resume) company$/).allTextContents()).toEqual(
      ['Resume company', 'Suspend company', 'Create company'],
    );

    // The list shows it; then both pages at 1280 and at 390 px, neither scrolling sideways.
    const pages: [string, string, string][] = [
      [`${server.url}/customers`, 'Customers', 'customers'],
      [customerUrl, 'Globex Phone Test', 'customer'],
    ];
    for (const [width, height, prefix] of [
      [1280, 900, 'reseller'],
      [390, 844, 'phone-reseller'],
    ] as const) {
      await page.setViewportSize({ width, height });
      for (const [url, heading, shot] of pages) {
        await page.goto(url);
        await page.getByRole('heading', { level: 2, name: heading, exact: true }).waitFor();
        await page.getByText('Globex Phone Test').first().waitFor();
        await page.waitForLoadState('networkidle');
        await screenshot(page, `${prefix}-${shot}-${width}`);
        const overflow = await overflowOf(page);
        expect.soft(overflow, `${url} fits ${width} px`).toEqual({
          document: 0,
          tables: overflow.tables.map(() => 0),
        });
      }
    }

    expect(errors).toEqual([]);
  });

  it("a reseller's staff Admin: the brand, colour and domains in Settings, desktop and phone", async () => {
    const errors: string[] = [];
    const page = await newPage(errors);
    await signIn(page, server, '/', RESELLER);

    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('tab', { name: 'Reseller' }).click();
    await page.waitForURL(`${server.url}/settings?tab=reseller`);
    const form = page.getByRole('form', { name: 'Reseller settings' });
    expect(await form.getByRole('textbox', { name: 'Brand name' }).inputValue()).toBe(
      'Skyline Cloud',
    );
    await form.getByRole('img', { name: 'Logo URL preview', exact: true }).waitFor();

    // A colour too light for white text says so at once; a darker one shows its contrast.
    const color = form.getByRole('textbox', { name: 'Primary color' });
    await color.fill('#7fb3ff');
    await form.getByText(brandColorMessages.contrast(1.9)).waitFor();
    await color.fill('#0b7285');
    await form.getByText('Contrast 4.7:1 with white').waitFor();
    await color.press('Escape');

    // A domain of its own: the TXT record to create, then saved (the server's check is off here).
    await form.getByRole('button', { name: 'Add domain' }).click();
    const domain = form.getByRole('group', { name: 'Domain 1' });
    await domain.getByRole('textbox').fill('console.skyline-e2e.example');
    await domain.getByText('_launchpad.console.skyline-e2e.example').waitFor();
    await form.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('alert').filter({ hasText: resellerSettingsMessages.saved }).waitFor();
    await domain.getByText('Verified').waitFor();
    // The console's own colour follows: a filled button is drawn in it (not hovered: that is
    // a shade darker).
    await page.mouse.move(0, 0);
    await expect
      .poll(() =>
        // A string: the server's TypeScript project has no DOM types.
        page.evaluate<string>(
          `getComputedStyle(document.querySelector('form[aria-label="Reseller settings"] button[type=submit]')).backgroundColor`,
        ),
      )
      .toBe('rgb(11, 114, 133)');

    for (const [width, height, prefix] of [
      [1280, 900, 'reseller'],
      [390, 844, 'phone-reseller'],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.goto(`${server.url}/settings?tab=reseller`);
      await form.getByText('console.skyline-e2e.example').waitFor();
      await page.waitForLoadState('networkidle');
      await screenshot(page, `${prefix}-settings-${width}`);
      const overflow = await overflowOf(page);
      expect.soft(overflow, `the Reseller tab fits ${width} px`).toEqual({
        document: 0,
        tables: overflow.tables.map(() => 0),
      });
    }

    expect(errors).toEqual([]);
  });

  it('a customer: no Order Services, and the page itself sends them to the dashboard', async () => {
    const errors: string[] = [];
    const page = await newPage(errors);
    await signIn(page, server, '/', CUSTOMER);

    await page.getByRole('tab', { name: 'VM Usage' }).waitFor();
    await page.getByRole('tab', { name: 'Teams' }).waitFor();
    expect(await page.getByRole('button', { name: 'Order Services' }).count()).toBe(0);
    // The company has no logo of its own: the reseller's shows.
    await page.getByRole('img', { name: 'Skyline Cloud' }).waitFor();
    await screenshot(page, 'customer-01-dashboard');

    await page.goto(`${server.url}/orderServices`);
    await page.waitForURL(`${server.url}/`);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Order Services' }).count()).toBe(0);

    await page.getByRole('link', { name: 'Support' }).click();
    await page.getByRole('button', { name: 'What should I do when I run into trouble?' }).click();
    await page.getByText('We answer by e-mail at the address you sign in with.').waitFor();
    await screenshot(page, 'customer-02-support');

    // An error the console did not handle reaches the server log, via POST /logging.
    await page.evaluate(
      () =>
        new Promise((resolve) => {
          setTimeout(() => {
            throw new Error('e2e unhandled error for the log');
          });
          setTimeout(resolve, 50);
        }),
    );
    // Leaving the page sends what the reporter holds.
    await page.evaluate("window.dispatchEvent(new Event('pagehide'))");
    for (
      let attempt = 0;
      attempt < 50 && !server.output().includes('e2e unhandled');
      attempt += 1
    ) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(server.output()).toContain('e2e unhandled error for the log');

    expect(errors).toEqual(['e2e unhandled error for the log']);
  });
});
