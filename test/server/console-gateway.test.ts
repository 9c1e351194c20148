import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../src/api/contract/roles';
import { providers } from '../../server/db/catalog-schema';
import { virtualMachines } from '../../server/db/vm-schema';
import { consoleEnds } from '../../server/domain/consoles/open-consoles';
import { isRfbInput } from '../../server/plugins/console-gateway';
import { issueConsoleTicket } from '../../server/providers/console-ticket';
import type { ProviderDriver } from '../../server/providers/driver';
import {
  consoleUrlFor,
  openConsole,
  openedConsole,
  type OpenConsole,
} from './support/console-client';
import { startTestServer, type TestServer } from './support/harness';
import { addTeamMember, createCompany, createTeam, createUser } from './support/seed';
import { signIn } from './support/sign-in';
import { insertVms } from './support/vm-fixtures';

/**
 * The console gateway of the engines whose screens the product serves itself: a tiny RFB server
 * on a unix socket stands for a guest's VNC, and a VM of team Alpha is moved onto a driver of
 * kind `lab` that opens it.
 */
describe('the console gateway', () => {
  let dir: string;
  let rfb: Server;
  const received: Buffer[] = [];
  const vncSockets = new Set<Socket>();
  const logs: string[] = [];
  let server: TestServer;
  let companyId: number;
  let teamId: number;
  let vmId: number;
  let otherVmId: number;
  let token: string;
  const opened: OpenConsole[] = [];

  const lab = {
    kind: 'lab',
    consoleUrl: async () => '/console/',
    openConsole: async (ref: string) => {
      if (ref !== 'rack/srv-1') throw new Error('no such server');
      return connect(path.join(dir, 'vnc.sock'));
    },
  } as unknown as ProviderDriver;
  const plain = { kind: 'plain', consoleUrl: async () => '/console/' } as unknown as ProviderDriver;

  /** A new Operator of the VMs' team, signed in: their session's token. */
  async function newOperator() {
    const user = await createUser(server.database.db, { companyId });
    await addTeamMember(server.database.db, { teamId, userId: user.id, roleId: ROLE.operator });
    return (await signIn(server, user.email)).token;
  }

  /** Puts a VM on a provider served by `driver`, as the server `ref`. */
  async function moveOnto(id: number, driver: string, ref: string) {
    const db = server.database.db;
    let [provider] = await db.select().from(providers).where(eq(providers.key, driver));
    if (!provider) {
      [provider] = await db
        .insert(providers)
        .values({ key: driver, name: driver, driver })
        .returning();
    }
    await db
      .update(virtualMachines)
      .set({ providerId: provider!.id, providerRef: ref })
      .where(eq(virtualMachines.id, id));
  }

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'launchpad-gateway-'));
    writeFileSync(
      path.join(dir, 'index.html'),
      '<!doctype html><html><head><title>Launchpad</title></head><body></body></html>',
    );
    writeFileSync(
      path.join(dir, 'console.html'),
      '<!doctype html><html><head><title>Console</title></head><body>novnc</body></html>',
    );
    rfb = createServer((socket) => {
      vncSockets.add(socket);
      socket.on('close', () => vncSockets.delete(socket));
      socket.write('RFB 003.008\n');
      socket.on('data', (chunk) => {
        received.push(chunk);
        socket.write(chunk);
      });
    });
    await new Promise<void>((resolve) => rfb.listen(path.join(dir, 'vnc.sock'), resolve));
    const stream = new Writable({
      write(chunk, _encoding, done) {
        logs.push(String(chunk));
        done();
      },
    });
    server = await startTestServer({}, { logStream: stream, logLevel: 'info', consoleDir: dir });
    const drivers = server.drivers as Map<string, ProviderDriver>;
    drivers.set('lab', lab);
    drivers.set('plain', plain);
    ({
      company: { id: companyId },
    } = await createCompany(server.database.db));
    ({ id: teamId } = await createTeam(server.database.db, { companyId }));
    const vms = await insertVms(server.database.db, [
      { companyId, teamId, name: 'guest' },
      { companyId, teamId, name: 'plain' },
    ]);
    [vmId, otherVmId] = vms.map((vm) => vm.id) as [number, number];
    await moveOnto(vmId, 'lab', 'rack/srv-1');
    await moveOnto(otherVmId, 'plain', 'rack/srv-2');
    token = await newOperator();
  });
  afterEach(async () => {
    received.length = 0;
    for (const term of opened.splice(0)) term.socket.close();
    await expect.poll(() => server.app.consoles.size).toBe(0);
  });
  afterAll(async () => {
    await server?.close();
    await new Promise((resolve) => rfb.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  const link = (id = vmId) => consoleUrlFor(server, token, id);
  const page = (url: string, session: string | undefined = token) =>
    server.app.inject({
      method: 'GET',
      url,
      headers: session ? { cookie: `launchpad_session=${session}` } : {},
    });
  async function open(url: string) {
    const term = await openedConsole(server, url, { token });
    opened.push(term);
    return term;
  }

  it('serves the noVNC page for a valid ticket, with the base path, uncached', async () => {
    const url = await link();
    expect(url).toMatch(/^\/console\/\d+\./);
    const res = await page(url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain('novnc');
    expect(res.body).toContain('<base href="/" />');
  });

  it('carries the guest console both ways, in binary frames, once per ticket', async () => {
    const url = await link();
    expect((await page(url)).statusCode).toBe(200);
    const term = await open(url);
    await term.waitFor('RFB 003.008\n');
    term.send(Buffer.from('RFB 003.008\n'));
    await term.waitFor('RFB 003.008\nRFB 003.008\n');
    expect(Buffer.concat(received).toString()).toBe('RFB 003.008\n');
    // Used: a second socket and a reload are refused, and no second VNC connection is made.
    expect(await openConsole(server, url, { token })).toBe(403);
    expect((await page(url)).statusCode).toBe(404);
    expect(vncSockets.size).toBe(1);
    // Closing the browser's side closes the guest's.
    term.socket.close();
    await expect.poll(() => vncSockets.size).toBe(0);
  });

  it('closes the browser side when the guest side goes away', async () => {
    const term = await open(await link());
    await term.waitFor('RFB');
    for (const vnc of vncSockets) vnc.destroy();
    expect((await term.closed).code).toBeGreaterThan(0);
  });

  it('closes the console, the guest side too, when the session signs out', async () => {
    const session = await newOperator();
    const term = await openedConsole(server, await consoleUrlFor(server, session, vmId), {
      token: session,
    });
    await term.waitFor('RFB');
    expect(vncSockets.size).toBe(1);
    const out = await server.app.inject({
      method: 'POST',
      url: '/api/v1/auth/logout',
      headers: { authorization: `Bearer ${session}` },
    });
    expect(out.statusCode).toBe(200);
    expect(await term.closed).toEqual(consoleEnds.sessionEnded);
    await expect.poll(() => vncSockets.size).toBe(0);
  });

  it.each([
    ['tampered', (url: string) => `${url.slice(0, -2)}xx`],
    ['for another VM', (url: string) => url.replace(/^\/console\/\d+/, `/console/${vmId + 1000}`)],
    [
      'signed with another key',
      () =>
        `/console/${issueConsoleTicket(randomBytes(32), { vmId, userId: 1, holder: { kind: 'session', id: 1 } }, server.clock.now())}`,
    ],
    ['malformed', () => '/console/not-a-ticket'],
  ])('refuses a ticket %s, for the page and the websocket', async (_what, make) => {
    const url = make(await link());
    const res = await page(url);
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('This console link has expired or the server is not running.');
    expect(await openConsole(server, url, { token })).toBe(403);
    expect(vncSockets.size).toBe(0);
  });

  it('refuses a VM of an engine without a console of its own, and a foreign origin', async () => {
    const plainUrl = await link(otherVmId);
    expect((await page(plainUrl)).statusCode).toBe(404);
    expect(await openConsole(server, plainUrl, { token })).toBe(403);

    const url = await link();
    expect(await openConsole(server, url, { token, origin: 'https://evil.example' })).toBe(403);
    expect(vncSockets.size).toBe(0);
    // Not used up by the refusals.
    await (await open(url)).waitFor('RFB');
  });

  it('closes with a reason when the engine cannot open the console', async () => {
    await moveOnto(otherVmId, 'lab', 'srv-9');
    try {
      const term = await open(await link(otherVmId));
      expect(await term.closed).toEqual({
        code: 1011,
        reason: 'The console of this server cannot be reached',
      });
    } finally {
      await moveOnto(otherVmId, 'plain', 'rack/srv-2');
    }
  });

  it('keeps tickets out of the logs', async () => {
    const url = await link();
    await page(url);
    const log = logs.join('');
    expect(log).toContain('/console/[redacted]');
    expect(log).not.toContain(url.slice('/console/'.length));
  });
});

describe('what counts as input on a VNC console', () => {
  const updateRequest = Buffer.from([3, 1, 0, 0, 0, 0, 4, 0, 3, 0]);
  const key = Buffer.from([4, 1, 0, 0, 0, 0, 0, 0x61]);
  const pointer = Buffer.from([5, 0, 0, 10, 0, 10]);
  const fence = Buffer.from([248, 0, 0, 0, 0, 0, 0, 1, 2, 0xaa, 0xbb]);

  it('is not the screen-update requests the viewer sends on its own', () => {
    expect(isRfbInput(updateRequest)).toBe(false);
    expect(isRfbInput(Buffer.concat([updateRequest, fence, updateRequest]))).toBe(false);
  });

  it('is a key, a pointer move or anything else', () => {
    expect(isRfbInput(key)).toBe(true);
    expect(isRfbInput(pointer)).toBe(true);
    expect(isRfbInput(Buffer.concat([updateRequest, key]))).toBe(true);
    expect(isRfbInput(Buffer.from('RFB 003.008\n'))).toBe(true);
  });
});
