import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser';
import { startServer, type RunningServer } from './support/server-process';

/**
 * The sign-in screen's JavaScript as a phone downloads it: compressed as the server sends the
 * build's files, headers included (Lighthouse's transfer size), in KB of 1,024 bytes as Lighthouse
 * counts them.
 */
const BUDGET_KB = 150;

describe("/login's JavaScript", () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({}), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it(`stays within ${BUDGET_KB} KB over the wire`, async () => {
    const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
    const page = await context.newPage();
    const scripts: Promise<{ url: string; bytes: number; encoding?: string }>[] = [];
    page.on('requestfinished', (request) => {
      if (request.resourceType() !== 'script') return;
      scripts.push(
        Promise.all([request.sizes(), request.response()]).then(([sizes, response]) => ({
          url: new URL(request.url()).pathname,
          bytes: sizes.responseHeadersSize + sizes.responseBodySize,
          encoding: response?.headers()['content-encoding'],
        })),
      );
    });
    await page.goto(`${server.url}/login`);
    // The console has taken over the drawn card, and whatever its start fetches is in.
    await expect.poll(() => page.locator('input[name=email]').isEditable()).toBe(true);
    await page.waitForLoadState('networkidle');
    const fetched = await Promise.all(scripts);
    await context.close();

    expect(fetched.length).toBeGreaterThan(0);
    // Measured as sent: each file compressed, not as built.
    for (const script of fetched) expect(script.encoding, script.url).toMatch(/^(br|gzip)$/);
    const kb = fetched.reduce((sum, script) => sum + script.bytes, 0) / 1024;
    const files = fetched.map((s) => `${s.url} ${(s.bytes / 1024).toFixed(1)} KB`).join(', ');
    expect(kb, `${kb.toFixed(1)} KB in ${files}`).toBeLessThanOrEqual(BUDGET_KB);
  });
});
