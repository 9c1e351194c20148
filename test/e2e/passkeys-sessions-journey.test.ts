import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, screenshot } from './support/browser';
import { enterCredentials } from './support/journey';
import { startServer, type RunningServer } from './support/server-process';

const ADMIN = { email: 'e2e-passkeys@example.com', password: 'E2e!Passkey-Passw0rd' };
const desktop = { width: 1280, height: 900 };
const phone = { width: 412, height: 823 };

/**
 * Passkeys and sessions in Chromium, with the DevTools protocol's virtual authenticator (a
 * platform authenticator holding passkeys, its user verified). The console is opened as
 * `localhost`: an IP address cannot be a WebAuthn relying party, and the server's own
 * loopback address stands for it.
 */
describe('passkeys and sessions in Chromium', () => {
  let server: RunningServer;
  let site: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({
        BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
        BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
        // Several sign-ins from one address within a minute.
        AUTH_RATE_LIMIT: '100',
      }),
      launchChromium(),
    ]);
    site = { ...server, url: server.url.replace('127.0.0.1', 'localhost') };
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function withAuthenticator(context: BrowserContext, page: Page) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    return { cdp, authenticatorId };
  }

  /** The signed-in user's own page (the sidebar's Profile link is folded away on a phone). */
  async function openProfile(page: Page) {
    const id = await page.evaluate<number>(
      "JSON.parse(sessionStorage.getItem('session') ?? localStorage.getItem('session')).user.id",
    );
    await page.goto(`${site.url}/user?id=${id}`);
    await page.getByRole('heading', { name: 'Security', exact: true }).waitFor();
  }

  const signOut = async (page: Page) => {
    await page.goto(`${site.url}/logout`);
    await page.getByText('Logout Successful').waitFor();
  };

  it('registers a passkey, then signs in with it as the second step and without the password', async () => {
    const context = await browser.newContext({ viewport: desktop });
    const page = await context.newPage();
    const { cdp, authenticatorId } = await withAuthenticator(context, page);

    await enterCredentials(page, site, '/', ADMIN);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await openProfile(page);
    await page.getByRole('button', { name: 'Add passkey' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a passkey or security key' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Work laptop');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Passkey added').waitFor();
    const passkeys = page.getByRole('table', { name: 'Passkeys and security keys' });
    await passkeys.getByText('Work laptop').waitFor();
    // The authenticator made a discoverable credential: a passkey, good without a password.
    await passkeys.getByText('Passkey', { exact: true }).waitFor();
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });
    await page.getByRole('table', { name: 'Sessions' }).getByText('This session').waitFor();
    await page.getByRole('heading', { name: 'Security', exact: true }).scrollIntoViewIfNeeded();
    await screenshot(page, 'passkeys-sessions-desktop');

    // The password, then the passkey instead of the e-mailed code.
    await signOut(page);
    await page.goto(`${site.url}/login`);
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL(`${site.url}/mfa`);
    await page.getByRole('button', { name: 'Use a passkey or security key' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();

    // No password at all.
    await signOut(page);
    await page.goto(`${site.url}/login`);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await openProfile(page);
    const used = await passkeys.getByRole('row').nth(1).innerText();
    expect(used).not.toContain('Never');
    const sessions = page.getByRole('table', { name: 'Sessions' });
    await expect
      .poll(() => sessions.getByText('Passkey', { exact: true }).count())
      .toBeGreaterThan(0);
    await context.close();
  }, 180_000);

  it('ends a session from another browser: that one is signed out at once', async () => {
    const phoneContext = await browser.newContext({ viewport: phone, isMobile: true });
    const phonePage = await phoneContext.newPage();
    await enterCredentials(phonePage, site, '/', ADMIN);
    await phonePage.getByRole('heading', { name: 'Dashboard' }).waitFor();

    const deskContext = await browser.newContext({ viewport: desktop });
    const deskPage = await deskContext.newPage();
    await enterCredentials(deskPage, site, '/', ADMIN);
    await deskPage.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await openProfile(deskPage);
    const sessions = deskPage.getByRole('table', { name: 'Sessions' });
    await sessions.getByText('This session').waitFor();
    // The phone's session, the newest other one: Chrome on Android as the phone says.
    const others = sessions.getByRole('button', { name: /^Sign out / });
    await expect.poll(() => others.count()).toBeGreaterThan(0);
    await others.first().click();
    const confirm = deskPage.getByRole('dialog');
    await confirm.getByRole('button', { name: 'Sign out' }).click();
    await deskPage.getByText('Signed out of that session').waitFor();

    // The phone did nothing: its live stream closed and it was sent to the sign-in page.
    await phonePage.waitForURL(`${site.url}/login`, { timeout: 20_000 });
    await phonePage.getByRole('heading', { name: 'Login' }).waitFor();

    // The phone signs in again and looks at its own sessions.
    await enterCredentials(phonePage, site, '/', ADMIN);
    await phonePage.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await openProfile(phonePage);
    await phonePage.getByRole('table', { name: 'Sessions' }).getByText('This session').waitFor();
    await screenshot(phonePage, 'passkeys-sessions-phone');

    // Everywhere else: the desktop is signed out too.
    await phonePage.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await phonePage
      .getByRole('dialog')
      .getByRole('button', { name: 'Sign out everywhere else' })
      .click();
    await phonePage.getByText('Signed out everywhere else').waitFor();
    await deskPage.waitForURL(`${site.url}/login`, { timeout: 20_000 });
    await phoneContext.close();
    await deskContext.close();
  }, 180_000);
});
