import { expect } from 'vitest';
import { consoleEnds } from '../../../server/domain/consoles/open-consoles';
import { openConsoleAt, type OpenConsole } from '../../server/support/console-client';
import { apiToken } from './api-session';
import type { Credentials } from './journey';
import type { RunningServer } from './server-process';

/**
 * The console gateway's rules with a real guest (the libvirt and OpenStack suites): a console
 * link is refused from another origin, opens the guest's VNC stream once, and the open console
 * closes when its session signs out. The VM must be running.
 */
export async function checkGatewayConsoleRules(
  server: RunningServer,
  credentials: Credentials,
  vmId: number,
) {
  const token = await apiToken(server, credentials);
  const api = `${server.url}/api/v1`;
  const res = await fetch(`${api}/virtualMachines/getConsole/${vmId}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  const { consoleUrl } = ((await res.json()) as { data: { consoleUrl: string } }).data;
  expect(consoleUrl.startsWith(`/console/${vmId}.`)).toBe(true);

  const base = server.url.replace(/^http/, 'ws');
  const browser = { token, origin: server.url };
  expect(
    await openConsoleAt(base, consoleUrl, { ...browser, origin: 'https://evil.example' }),
  ).toBe(403);
  const term = (await openConsoleAt(base, consoleUrl, browser)) as OpenConsole;
  expect(typeof term).toBe('object');
  // The guest's VNC server speaks first: its protocol version.
  await term.waitFor('RFB 003.00');
  expect(await openConsoleAt(base, consoleUrl, browser)).toBe(403);

  const out = await fetch(`${api}/auth/logout`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(out.status).toBe(200);
  expect(await term.closed).toEqual(consoleEnds.sessionEnded);
}
