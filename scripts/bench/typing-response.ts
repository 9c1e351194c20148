import type { CDPSession, Page } from 'playwright-core';
import { apiSession } from '../../test/e2e/support/api-session';
import type { startServer } from '../../test/e2e/support/server-process';
import { median } from './stats';

const TEAMS = 100;
const TYPED = 'my-new-server';

/**
 * How long a keystroke in Create Virtual Machine's Name takes to answer on a phone: a company of
 * 100 teams (the team dropdown's options), the CPU 4x slower, the browser's own measure of each
 * key event (input to the next paint, as Interaction to Next Paint counts it). Median, in ms.
 */
export async function typingResponse(
  page: Page,
  cdp: CDPSession,
  server: Awaited<ReturnType<typeof startServer>>,
  admin: { email: string; password: string },
): Promise<number> {
  const call = await apiSession(server, admin);
  for (let i = 1; i <= TEAMS; i += 1) await call('POST', '/teams/create', { name: `team-${i}` });
  await page.goto(`${server.url}/createVirtualMachine`);
  const name = page.getByLabel('Name');
  await name.waitFor();
  // The dropdowns' lists in: what is measured is typing, not the screen's start.
  await page.waitForLoadState('networkidle');
  // durationThreshold: the least the API allows, so that every slow key is reported.
  await page.evaluate(`(() => {
    window.keyDurations = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        if (entry.name === 'keydown') window.keyDurations.push(entry.duration);
    }).observe({ type: 'event', durationThreshold: 16 });
  })()`);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  try {
    await name.click();
    await page.keyboard.type(TYPED, { delay: 150 });
    await page.waitForTimeout(1000);
  } finally {
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  }
  const durations = await page.evaluate<number[]>('window.keyDurations');
  // A key answered within 16 ms is not reported: it counts as 16.
  const all = [...durations, ...Array(Math.max(0, TYPED.length - durations.length)).fill(16)];
  return median(all);
}
