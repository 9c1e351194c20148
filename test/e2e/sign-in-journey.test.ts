import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, screenshot } from './support/browser';
import { enterCredentials, signIn } from './support/journey';
import { startServer, type RunningServer } from './support/server-process';

const EMAIL = 'e2e-admin@example.com';
const PASSWORD = 'E2e!Journey-Passw0rd';
const ADMIN = { email: EMAIL, password: PASSWORD };

describe('sign-in journey in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({ BOOTSTRAP_ADMIN_EMAIL: EMAIL, BOOTSTRAP_ADMIN_PASSWORD: PASSWORD }),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows the sign-in screen drawn at build before the code runs, where the console then draws it', async () => {
    const parts = (page: Page) => [
      page.getByText('Launchpad', { exact: true }),
      page.getByRole('heading', { name: 'Login' }),
      page.locator('input[name=email]'),
      page.locator('input[name=password]'),
      page.getByText('Remember me'),
      page.getByText('Forgot Password?'),
      page.locator('button[type=submit]'),
    ];
    const boxes = (page: Page) => Promise.all(parts(page).map((part) => part.boundingBox()));

    const phone = { width: 412, height: 823 };
    // The page as it is before the console's code has run: its scripts never arrive.
    const beforeCode = async (storedSession: boolean) => {
      const context = await browser.newContext({ viewport: phone });
      if (storedSession)
        await context.addInitScript({ content: "sessionStorage.setItem('session', '{}')" });
      const page = await context.newPage();
      await page.route('**/assets/*.js', (route) => route.abort());
      await page.goto(`${server.url}/login`);
      return { page, close: () => context.close() };
    };

    const drawn = await beforeCode(false);
    await screenshot(drawn.page, 'root-00-login-before-code');
    // Nothing to type into or click until the console takes over.
    expect(await drawn.page.locator('main').getAttribute('inert')).toBe('');
    expect(await drawn.page.locator('input[name=email]').isEditable()).toBe(false);
    const before = await boxes(drawn.page);
    await drawn.close();

    // A stored session may belong to a reseller's customer: not the product's own card, then.
    const returning = await beforeCode(true);
    expect(await returning.page.locator('#root').innerHTML()).toBe('');
    await returning.close();

    const page = await browser.newPage({ viewport: phone });
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(`${server.url}/login`);
    const email = page.getByLabel('Email');
    await expect.poll(() => email.isEditable()).toBe(true);
    // autoFocus: the live screen's e-mail field has the focus.
    await expect
      .poll(() => page.evaluate<string | null>("document.activeElement.getAttribute('name')"))
      .toBe('email');
    expect(await page.locator('main').getAttribute('inert')).toBeNull();
    expect(await boxes(page)).toEqual(before);
    // Nothing moved when the console replaced the drawn screen.
    const shifts = await page.evaluate<number>(`new Promise((resolve) => {
      new PerformanceObserver((list) => {
        resolve(list.getEntries().reduce((sum, entry) => sum + entry.value, 0));
      }).observe({ type: 'layout-shift', buffered: true });
      setTimeout(() => resolve(0), 500);
    })`);
    expect(shifts).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('logs in with the e-mailed code, reaches the dashboard, and logs out for good', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));

    await page.goto(`${server.url}/users`);
    await page.waitForURL(`${server.url}/login`);
    await screenshot(page, 'root-01-login');

    await signIn(page, server, '/', ADMIN);
    expect(page.url()).toBe(`${server.url}/`);
    expect(await page.title()).toBe('Launchpad');
    await screenshot(page, 'root-03-dashboard');

    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByRole('cell', { name: EMAIL }).waitFor();
    await screenshot(page, 'root-04-users');

    const token = await page.evaluate<string | null>(
      "sessionStorage.getItem('token') ?? localStorage.getItem('token')",
    );
    expect(token).toBeTruthy();

    await page.getByRole('link', { name: 'Logout' }).click();
    await page.getByText('Logout Successful').waitFor();
    await screenshot(page, 'root-05-logged-out');

    // The server revoked the session: the old token is worthless.
    const check = await fetch(`${server.url}/api/v1/auth/check`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(check.status).toBe(401);

    await page.getByRole('link', { name: 'Return to Login' }).click();
    await page.waitForURL(`${server.url}/login`);
    await page.goto(`${server.url}/`);
    await page.waitForURL(`${server.url}/login`);
    expect(errors).toEqual([]);
  });
});

describe('the console under a base path', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({
        BOOTSTRAP_ADMIN_EMAIL: EMAIL,
        BOOTSTRAP_ADMIN_PASSWORD: PASSWORD,
        BASE_PATH: '/console/',
      }),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('serves deep links, assets and the API under BASE_PATH', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const refused: string[] = [];
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) refused.push(message.text());
    });
    const failedAssets: string[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/assets/') && response.status() >= 400)
        failedAssets.push(`${response.status()} ${response.url()}`);
    });
    /** What the page's inline script asked to download early, as paths. */
    const firstScreenFiles = async () =>
      (
        await page.$$eval('link[data-first-screen]', (links) =>
          links.map((link) => link.getAttribute('href') ?? ''),
        )
      ).map((href) => new URL(href).pathname);

    await page.goto(`${server.url}/console/users`);
    await page.waitForURL(`${server.url}/console/login`);
    // No session: nothing of the signed-in screens is fetched ahead.
    expect(await firstScreenFiles()).toEqual([]);
    await signIn(page, server, '/console/', ADMIN);
    expect(page.url()).toBe(`${server.url}/console/`);
    await screenshot(page, 'prefixed-03-dashboard');
    expect((await fetch(`${server.url}/api/v1/healthCheck/api`)).status).toBe(404);
    expect((await fetch(`${server.url}/console/api/v1/healthCheck/api`)).status).toBe(200);

    // Signed in, a page opened afresh fetches its screen's code with the page, under the base path.
    await page.goto(`${server.url}/console/virtualMachines`);
    await page.getByRole('heading', { level: 2, name: 'Virtual Machines' }).waitFor();
    const files = await firstScreenFiles();
    expect(
      files.filter((file) => /^\/console\/assets\/virtualMachines-[\w-]+\.js$/.test(file)),
    ).toHaveLength(1);
    expect(files.some((file) => file.endsWith('.css'))).toBe(true);
    expect(refused).toEqual([]);
    expect(failedAssets).toEqual([]);
  });
});

describe('the first start of a fresh install', () => {
  const FIRST_ADMIN = 'first-admin@example.com';
  const NEW_PASSWORD = 'Brand-New!Passw0rd';
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({ BOOTSTRAP_ADMIN_EMAIL: FIRST_ADMIN, BOOTSTRAP_ADMIN_PASSWORD: '' }),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('prints a generated password once, which must be replaced at the first sign-in', async () => {
    const printed = server.output().match(/with the password (\S+) \(shown once/)?.[1];
    expect(printed).toBeDefined();

    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await enterCredentials(page, server, '/', { email: FIRST_ADMIN, password: printed! });
    await page.getByRole('heading', { name: 'Reset Password' }).waitFor();
    expect(new URL(page.url()).searchParams.get('token')).toBeTruthy();

    await page.getByLabel('New Password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirm Password', { exact: true }).fill(NEW_PASSWORD);
    await screenshot(page, 'first-start-01-reset');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByText('Password Reset Complete').waitFor();
    await screenshot(page, 'first-start-02-reset-complete');

    // The reset ended every session: the button leads through the login screen.
    await page.getByRole('button', { name: 'Go to Reseller Launchpad' }).click();
    await page.waitForURL(`${server.url}/login`);

    await enterCredentials(page, server, '/', { email: FIRST_ADMIN, password: NEW_PASSWORD });
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    expect(page.url()).toBe(`${server.url}/`);
  });
});
