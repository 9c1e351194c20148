import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { loggerOptions } from '../../server/app';
import { registerConsoleGateway } from '../../server/plugins/console-gateway';
import { issueConsoleTicket } from '../../server/providers/console-ticket';
import type { ProviderDriver } from '../../server/providers/driver';
import { testClock } from './harness';

const base64url = (text: string) => Buffer.from(text).toString('base64url');
const SECRET = 'gateway-secret-gateway-secret-gateway';

/**
 * The console gateway on a listening server: a tiny RFB server on a unix socket stands for a
 * guest's VNC, and a driver of kind `lab` opens it.
 */
describe('the console gateway', () => {
  let dir: string;
  let rfb: Server;
  const received: Buffer[] = [];
  const vncSockets = new Set<Socket>();
  let app: FastifyInstance;
  let base: string;
  const clock = testClock();
  const logs: string[] = [];

  const lab = {
    kind: 'lab',
    openConsole: async (ref: string) => {
      if (ref !== 'rack/srv-1') throw new Error('no such server');
      return connect(path.join(dir, 'vnc.sock'));
    },
  } as unknown as ProviderDriver;
  const plain = { kind: 'plain' } as unknown as ProviderDriver;
  const ticket = (kind = 'lab', ref = 'rack/srv-1', seconds = 60) =>
    issueConsoleTicket(SECRET, kind, { ref, expiresAt: clock.now().getTime() + seconds * 1000 });

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'launchpad-gateway-'));
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
    app = Fastify({ logger: { ...loggerOptions('info'), stream } });
    await registerConsoleGateway(app, {
      path: '/console/',
      basePath: '/',
      secret: SECRET,
      clock,
      drivers: new Map([
        ['lab', lab],
        ['plain', plain],
      ]),
      distDir: dir,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    base = `127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterEach(() => {
    received.length = 0;
  });
  afterAll(async () => {
    await app.close();
    await new Promise((resolve) => rfb.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  /** Opens the websocket; answers it once open, or the HTTP status it was refused with. */
  const open = (value: string) =>
    new Promise<WebSocket | number>((resolve, reject) => {
      const socket = new WebSocket(`ws://${base}/console/${value}/websockify`, ['binary']);
      socket.once('open', () => resolve(socket));
      socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      socket.once('error', reject);
    });
  const next = (socket: WebSocket) =>
    new Promise<Buffer>((resolve) => socket.once('message', (data) => resolve(data as Buffer)));

  it('serves the noVNC page for a valid ticket, with the base path, uncached', async () => {
    const res = await fetch(`http://${base}/console/${ticket()}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const html = await res.text();
    expect(html).toContain('novnc');
    expect(html).toContain('<base href="/" />');
  });

  it('carries the guest console both ways, in binary frames', async () => {
    const socket = (await open(ticket())) as WebSocket;
    expect(socket.protocol).toBe('binary');
    expect((await next(socket)).toString()).toBe('RFB 003.008\n');
    socket.send(Buffer.from('RFB 003.008\n'));
    expect((await next(socket)).toString()).toBe('RFB 003.008\n');
    expect(Buffer.concat(received).toString()).toBe('RFB 003.008\n');
    // Closing the browser's side closes the guest's.
    socket.close();
    await expect.poll(() => vncSockets.size).toBe(0);
  });

  it('closes the browser side when the guest side goes away', async () => {
    const socket = (await open(ticket())) as WebSocket;
    await next(socket);
    const closed = new Promise<number>((resolve) => socket.once('close', resolve));
    for (const vnc of vncSockets) vnc.destroy();
    expect(await closed).toBeGreaterThan(0);
  });

  it.each([
    ['expired', () => ticket('lab', 'rack/srv-1', -1)],
    ['tampered', () => `${ticket().slice(0, -2)}xx`],
    [
      'for another server',
      () => ticket().replace(base64url('rack/srv-1'), base64url('rack/srv-2')),
    ],
    ['for another engine', () => ticket('sim')],
    ['for an engine without a console of its own', () => ticket('plain')],
    [
      'signed with another secret',
      () =>
        issueConsoleTicket('other', 'lab', {
          ref: 'rack/srv-1',
          expiresAt: clock.now().getTime() + 60_000,
        }),
    ],
    ['malformed', () => 'not-a-ticket'],
  ])('refuses a ticket %s, for the page and the websocket', async (_what, make) => {
    const value = make();
    const page = await fetch(`http://${base}/console/${value}`);
    expect(page.status).toBe(404);
    expect(await page.text()).toContain(
      'This console link has expired or the server is not running.',
    );
    expect(await open(value)).toBe(403);
    expect(vncSockets.size).toBe(0);
  });

  it('closes with a reason when the engine cannot open the console', async () => {
    const socket = (await open(ticket('lab', 'srv-9'))) as WebSocket;
    const [code, reason] = await new Promise<[number, string]>((resolve) =>
      socket.once('close', (c, r) => resolve([c, r.toString()])),
    );
    expect(code).toBe(1011);
    expect(reason).toBe('The console of this server cannot be reached');
  });

  it('keeps tickets out of the logs', async () => {
    const value = ticket();
    await fetch(`http://${base}/console/${value}`);
    const log = logs.join('');
    expect(log).toContain('/console/[redacted]');
    expect(log).not.toContain(value);
  });
});
