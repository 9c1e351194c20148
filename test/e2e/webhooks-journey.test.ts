import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookMessages } from '../../src/api/contract/webhooks';
import { launchChromium, screenshot } from './support/browser';
import { choose, signIn } from './support/journey';
import { startServer, type RunningServer } from './support/server-process';

const ADMIN = { email: 'hooks-admin@example.com', password: 'Webhooks!Journey-Passw0rd' };

interface Received {
  headers: IncomingHttpHeaders;
  /** The bytes as they came, which the signature covers. */
  body: Buffer;
}

/** A receiver on 127.0.0.1 that keeps every request and answers 200. */
async function startReceiver(): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/hooks/launchpad`, received };
}

/** docs/webhooks.md's check: `v1=` and the hex HMAC-SHA256 of `<timestamp>.<raw body>`. */
function signedWith(secret: string, { headers, body }: Received): boolean {
  const timestamp = String(headers['launchpad-timestamp'] ?? '');
  const signature = String(headers['launchpad-signature'] ?? '');
  if (!/^\d{1,12}$/.test(timestamp)) return false;
  const expected = `v1=${createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex')}`;
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, Buffer.from(expected));
}

/**
 * Issue 34's webhooks journey in Chromium: an Admin adds a webhook to a receiver of the test's
 * own, copies its secret from the one dialog that shows it, sends a test event, sees it delivered
 * in the log, checks that the receiver could trust it, and deletes the webhook.
 */
describe('webhooks, in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    receiver = await startReceiver();
    [server, browser] = await Promise.all([
      startServer({
        BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
        BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
        // The receiver is on the loopback address, over plain HTTP.
        WEBHOOK_ALLOW_PRIVATE: 'true',
      }),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    receiver?.server.close();
  });

  it('add -> copy the secret once -> test event delivered and signed -> delete', async () => {
    const errors: string[] = [];
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const page = await context.newPage();
    page.on('pageerror', (err) => errors.push(err.message));
    await signIn(page, server, '/', ADMIN);

    await page.getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL(`${server.url}/settings`);
    const table = page.getByRole('table', { name: 'Webhooks' });
    await table.getByText('No webhooks yet').waitFor();

    await page.getByRole('button', { name: 'Add webhook' }).click();
    const form = page.getByRole('form', { name: 'Add webhook' });
    await form.getByRole('textbox', { name: 'URL' }).fill(receiver.url);
    await choose(page, 'Event types', 'All events');
    await screenshot(page, 'webhooks-01-add');
    await form.getByRole('button', { name: 'Add webhook' }).click();

    const dialog = page.getByRole('dialog', { name: "Copy the webhook's signing secret" });
    await dialog.getByText('It will not be shown again').waitFor();
    await dialog.getByRole('button', { name: 'Copy secret' }).click();
    // A string: the server's TypeScript project has no DOM types.
    const secret = await page.evaluate<string>('navigator.clipboard.readText()');
    expect(secret).toMatch(/^whsec_[\w-]{43}$/);
    expect(await dialog.getByLabel('Signing secret').textContent()).toBe(secret);
    await screenshot(page, 'webhooks-02-secret');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.content()).not.toContain(secret);
    const row = table.getByRole('row').filter({ hasText: receiver.url });
    await row.getByText('All events').waitFor();
    await row.getByText('Active').waitFor();

    await row.getByRole('button', { name: `Delivery log of ${receiver.url}` }).click();
    const log = page.getByRole('dialog', { name: 'Delivery log' });
    await log.getByText(/^No deliveries yet/).waitFor();
    await log.getByRole('button', { name: 'Send a test event' }).click();
    await page.getByText(webhookMessages.testQueued).waitFor();
    // The worker sends it within seconds; the open log reads itself again every 5 s.
    const delivered = log.getByRole('row').filter({ hasText: 'Test event' });
    await delivered.waitFor({ timeout: 60_000 });
    expect(await delivered.getByRole('cell').nth(3).textContent()).toBe('200');
    await delivered.getByText('Succeeded').waitFor();
    await screenshot(page, 'webhooks-03-log');

    const tests = receiver.received.filter((r) => r.headers['launchpad-event-id'] === '0');
    expect(tests).toHaveLength(1);
    const [test] = tests;
    expect(signedWith(secret, test!)).toBe(true);
    expect(signedWith(`${secret}x`, test!)).toBe(false);
    expect(JSON.parse(test!.body.toString('utf8'))).toMatchObject({ id: 0, test: true });
    expect(test!.headers['user-agent']).toBe('Launchpad-Webhooks/1');

    await page.keyboard.press('Escape');
    await log.waitFor({ state: 'hidden' });
    await row.getByRole('button', { name: `Delete ${receiver.url}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this webhook?' });
    await confirm.getByText(receiver.url).waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText(webhookMessages.deleted).waitFor();
    await table.getByText('No webhooks yet').waitFor();

    expect(errors).toEqual([]);
    await context.close();
  });
});
