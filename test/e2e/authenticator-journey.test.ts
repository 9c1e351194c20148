import { generate } from 'otplib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, screenshot } from './support/browser';
import { signIn } from './support/journey';
import { startServer, type RunningServer } from './support/server-process';

const EMAIL = 'e2e-totp@example.com';
const PASSWORD = 'E2e!Totp-Journey-Passw0rd';
const ADMIN = { email: EMAIL, password: PASSWORD };
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 412, height: 823 };

const step = () => Math.floor(Date.now() / 30_000);

/**
 * The app's code as a phone computes it, from the key read off the page. A code is taken once
 * per 30-second step, so this waits for a step after `after` when one was already used.
 */
async function appCode(secret: string, after?: number) {
  while (after !== undefined && step() <= after) await new Promise((r) => setTimeout(r, 500));
  return { code: await generate({ secret }), step: step() };
}

async function typeCode(page: Page, code: string) {
  await page.getByLabel('Digit 1 of 6').click();
  await page.keyboard.type(code);
}

async function logInWithPassword(page: Page, server: RunningServer) {
  await page.goto(`${server.url}/logout`);
  await page.getByText('Logout Successful').waitFor();
  await page.goto(`${server.url}/login`);
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL(`${server.url}/mfa`);
  await page.getByRole('heading', { name: 'Check your authenticator app' }).waitFor();
}

describe('authenticator app journey in Chromium', () => {
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

  it('enrols from Profile, then signs in with the app and with a recovery code', async () => {
    const page = await browser.newPage({ viewport: DESKTOP });
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await signIn(page, server, '/', ADMIN);

    // Profile → Security → Set up: the QR code and the key, read off the page.
    await page.getByRole('link', { name: 'Profile' }).click();
    const card = page.getByRole('region', { name: 'Authenticator app' });
    await card.getByText('Off', { exact: true }).waitFor();
    await card.getByRole('button', { name: 'Set up authenticator app' }).click();
    const dialog = page.getByRole('dialog', { name: 'Set up authenticator app' });
    await dialog.getByRole('img', { name: /QR code/ }).waitFor();
    const secret = (await dialog.getByLabel('Setup key', { exact: true }).textContent())!.replace(
      /\s+/g,
      '',
    );
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await screenshot(page, 'security-01-enrol-desktop');

    const first = await appCode(secret);
    await typeCode(page, first.code);
    await dialog.getByRole('button', { name: 'Turn on' }).click();
    const list = dialog.getByRole('list', { name: 'Recovery codes' });
    await list.waitFor();
    const recoveryCodes = (await list.getByRole('listitem').allTextContents()).map((c) => c.trim());
    expect(recoveryCodes).toHaveLength(10);
    await screenshot(page, 'security-02-recovery-codes-desktop');
    await dialog.getByRole('checkbox', { name: 'I have saved my recovery codes' }).check();
    await dialog.getByRole('button', { name: 'Done' }).click();
    await card.getByText('On', { exact: true }).waitFor();
    await card.getByText('10 recovery codes left').waitFor();
    const security = page.getByRole('region', { name: 'Security' });
    await security.scrollIntoViewIfNeeded();
    await screenshot(page, 'security-03-on-desktop');
    await page.setViewportSize(PHONE);
    await card.getByText('On', { exact: true }).waitFor();
    await screenshot(page, 'security-04-on-phone');

    // Signing in again asks for the app's code, and no e-mail is sent for it.
    const mailsBefore = server.mailsTo(EMAIL).length;
    await logInWithPassword(page, server);
    await expect.poll(() => page.getByText(/We sent a 6-digit code/).count()).toBe(0);
    await screenshot(page, 'mfa-01-app-phone');
    // The code used to turn the app on cannot be used again: the next one does.
    const second = await appCode(secret, first.step);
    await typeCode(page, second.code);
    await page.getByRole('button', { name: 'Authenticate' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    expect(server.mailsTo(EMAIL)).toHaveLength(mailsBefore);

    // A recovery code instead of the app.
    await logInWithPassword(page, server);
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByRole('textbox', { name: 'Recovery code' }).fill(recoveryCodes[0]!);
    await screenshot(page, 'mfa-02-recovery-phone');
    await page.getByRole('button', { name: 'Authenticate' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();

    // It worked once: the Security card counts it.
    await page.setViewportSize(DESKTOP);
    await page.getByRole('link', { name: 'Profile' }).click();
    await card.getByText('9 recovery codes left').waitFor();
    expect(errors).toEqual([]);
  });
});
