import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkIn } from '../server/support/mail';
import { operatorCalls } from './support/api-session';
import { startResellerSite, type ResellerSite } from './support/reseller-site';
import { launchChromium, screenshot } from './support/browser';
import { activateAccount, readCode, readMail, type Credentials } from './support/journey';
import { startServer, type RunningServer } from './support/server-process';

const OPERATOR_TOKEN = 'e2e-operator-token-domains-0123456789';
/** Chromium reaches it at 127.0.0.1 (`--host-resolver-rules`): the reseller's own domain. */
const DOMAIN = 'console.reseller.test';
const BRAND = 'Skyline Cloud';
const COLOR = '#0b7285';
const COLOR_RGB = 'rgb(11, 114, 133)';
const CUSTOMER: Credentials = { email: 'it@acme.example', password: 'Acme!Domain-Passw0rd' };
const NEW_PASSWORD = 'Acme!Domain-Passw0rd-2';

/**
 * A reseller's own domain, mapped by the operator's import: its sign-in page in Chromium shows
 * the reseller's logo, tab title and icon and primary colour before anyone signs in, and the
 * e-mailed reset link leads back to that domain. The product's own address stays unbranded.
 */
describe("a reseller's domain, in Chromium", () => {
  let server: RunningServer;
  let browser: Browser;
  let site: ResellerSite;
  let domainUrl: string;

  beforeAll(async () => {
    site = await startResellerSite(COLOR);
    [server, browser] = await Promise.all([
      startServer({ OPERATOR_TOKEN, LOG_LEVEL: 'warn' }),
      launchChromium([`--host-resolver-rules=MAP ${DOMAIN} 127.0.0.1`]),
    ]);
    domainUrl = server.url.replace('127.0.0.1', DOMAIN);
    const api = operatorCalls(server, OPERATOR_TOKEN);
    await api('/imports/distributer', {
      items: [{ externalId: 'dist-north', name: 'Northwind', email: 'ops@northwind.example' }],
    });
    await api('/imports/reseller', {
      items: [
        {
          externalId: 'res-skyline',
          distributerExternalId: 'dist-north',
          name: 'Skyline Hosting Ltd',
          email: 'staff@skyline.example',
          resellerName: BRAND,
          logoUrl: `${site.url}/logo.svg`,
          tabLogoUrl: `${site.url}/favicon.svg`,
          primaryColor: COLOR,
          domains: [DOMAIN],
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
    await activateAccount(server, CUSTOMER, { firstName: 'Ada', lastName: 'Acme' });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await site?.close();
  });

  async function newPage(width: number, height: number, errors: string[]): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height } });
    const page = await context.newPage();
    page.on('pageerror', (err) => errors.push(err.message));
    return page;
  }

  /** The background of the form's submit button (Login), as the browser paints it. */
  const buttonColor = (page: Page) =>
    page.evaluate<string>(
      "getComputedStyle(document.querySelector('main form button[type=submit]')).backgroundColor",
    );

  it.each([
    ['phone', 390, 844],
    ['desktop', 1280, 900],
  ] as const)(
    'on a %s, /login shows the logo, tab title and icon, and the colour',
    async (device, width, height) => {
      const errors: string[] = [];
      const page = await newPage(width, height, errors);
      await page.goto(`${domainUrl}/login`);
      const logo = page.getByRole('img', { name: BRAND });
      await logo.waitFor();
      // Loaded from the reseller's site, not a broken image.
      await page.waitForFunction(`document.querySelector('img[alt="${BRAND}"]')?.naturalWidth > 0`);
      expect(await logo.getAttribute('src')).toBe(`${site.url}/logo.svg`);
      expect(await page.title()).toBe(BRAND);
      expect(await page.locator('link#tab-icon').getAttribute('href')).toBe(
        `${site.url}/favicon.svg`,
      );
      expect(await page.getByText('Launchpad').count()).toBe(0);
      await expect.poll(() => page.getByLabel('Email').isEditable()).toBe(true);
      expect(await buttonColor(page)).toBe(COLOR_RGB);
      await screenshot(page, `domain-01-login-${device}`);
      expect(errors).toEqual([]);
      await page.context().close();
    },
  );

  it("the product's own address stays unbranded", async () => {
    const errors: string[] = [];
    const page = await newPage(1280, 900, errors);
    await page.goto(`${server.url}/login`);
    await page.getByRole('heading', { name: 'Login' }).waitFor();
    expect(await page.title()).toBe('Launchpad');
    expect(await page.getByText('Launchpad', { exact: true }).count()).toBe(1);
    expect(await page.getByRole('img', { name: BRAND }).count()).toBe(0);
    expect(await buttonColor(page)).not.toBe(COLOR_RGB);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('Forgot Password e-mails a link on the domain, which resets the password there', async () => {
    const errors: string[] = [];
    const page = await newPage(1280, 900, errors);
    await page.goto(`${domainUrl}/login`);
    await expect.poll(() => page.getByLabel('Email').isEditable()).toBe(true);
    await page.getByRole('link', { name: 'Forgot Password?' }).click();
    await page.waitForURL(`${domainUrl}/forgotPassword`);
    // Its screen, not the sign-in screen still shown while the new one's code loads.
    await page.getByRole('heading', { name: 'Forgot Password' }).waitFor();
    await page.getByRole('img', { name: BRAND }).waitFor();
    await page.getByLabel('Email').fill(CUSTOMER.email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Reset Request Sent!' }).waitFor();

    const link = linkIn(await readMail(server, CUSTOMER.email, /Reset your/));
    expect(link.host).toBe(new URL(domainUrl).host);
    expect(link.pathname).toBe('/resetPassword');

    await page.goto(link.href);
    await page.getByRole('heading', { name: 'Reset Password' }).waitFor();
    expect(await page.title()).toBe(BRAND);
    await page.getByRole('img', { name: BRAND }).waitFor();
    await page.getByLabel('New Password').fill(NEW_PASSWORD);
    await page.getByLabel('Confirm Password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByRole('heading', { name: 'Password Reset Complete' }).waitFor();

    // Signed in on the domain with the new password: the console in the reseller's colour.
    await page.goto(`${domainUrl}/login`);
    await expect.poll(() => page.getByLabel('Email').isEditable()).toBe(true);
    await page.getByLabel('Email').fill(CUSTOMER.email);
    await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL(`${domainUrl}/mfa`);
    await page.getByLabel('Digit 1 of 6').click();
    await page.keyboard.type(await readCode(server, CUSTOMER.email));
    await page.getByRole('button', { name: 'Authenticate' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    expect(await page.title()).toBe(BRAND);
    await expect
      .poll(() =>
        page.evaluate<number>("document.querySelectorAll('style[data-brand-color]').length"),
      )
      .toBe(1);
    await screenshot(page, 'domain-02-dashboard-desktop');
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
