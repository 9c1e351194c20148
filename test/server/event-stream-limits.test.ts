import { once } from 'node:events';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { eq, max } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { events } from '../../server/db/event-schema';
import { SESSION_COOKIE } from '../../server/plugins/session-cookie';
import {
  EVENT_REPLAY_LIMIT,
  EVENT_STREAM_OPENS_PER_MINUTE,
  eventStreamMessages,
} from '../../src/api/contract/activity';
import { openEventStream } from './support/event-stream';
import { signIn } from './support/sign-in';
import { startTeamWorld, type TeamWorld } from './support/team-fixtures';

// Caps small enough to reach with a handful of connections; the rest is as in production.
const eventStreamCaps = { perUser: 2, perCompany: 4, perProcess: 5 };

/**
 * What a client that opens streams and never reads them, or asks for the whole history again and
 * again, can hold of the server: sockets, buffers and work, each bounded.
 */

let w: TeamWorld;
let baseUrl: string;
let port: number;
/** The server's side of every connection, to see whether it is gone. */
const serverSockets: net.Socket[] = [];
const clients: { close(): void }[] = [];

beforeAll(async () => {
  w = await startTeamWorld({ eventStreamCaps });
  w.server.app.server.on('connection', (socket: net.Socket) => serverSockets.push(socket));
  await w.server.app.listen({ host: '127.0.0.1', port: 0 });
  port = (w.server.app.server.address() as AddressInfo).port;
  baseUrl = `http://127.0.0.1:${port}`;
}, 60_000);
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  // The next test starts with no stream open.
  await until(() => serverSockets.every((s) => s.destroyed), 'every connection closed');
});
afterAll(() => w?.close());

/** Waits, a bounded while, for a condition the server reaches on its own. */
async function until(done: () => boolean, what: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`still waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const sessionOf = async (email: string) => (await signIn(w.server, email)).token;

async function open(token: string, options?: Parameters<typeof openEventStream>[2]) {
  const stream = await openEventStream(baseUrl, token, options);
  clients.push(stream);
  return stream;
}

/** A stream whose client sends its request and then reads nothing at all. */
async function stalledStream(token: string) {
  const socket = net.connect({ host: '127.0.0.1', port });
  clients.push({ close: () => socket.destroy() });
  socket.pause();
  await once(socket, 'connect');
  socket.write(
    `GET /api/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
      `Cookie: ${SESSION_COOKIE}=${token}\r\nAccept: text/event-stream\r\n\r\n`,
  );
  let serverSide: net.Socket | undefined;
  await until(() => {
    serverSide = serverSockets.find((s) => s.remotePort === socket.localPort);
    return (serverSide?.bytesWritten ?? 0) > 0;
  }, 'the stream answered');
  return serverSide!;
}

/** Events of the company written straight to the log; network events are everyone's to see. */
async function seedEvents(count: number, detail: Record<string, string> = {}) {
  await w.server.database.db.insert(events).values(
    Array.from({ length: count }, () => ({
      companyId: w.companyId,
      occurredAt: w.server.clock.now(),
      actorType: 'system' as const,
      actorName: 'System',
      subjectType: 'network' as const,
      subjectId: 1,
      subjectName: 'padding',
      action: 'network.edit' as const,
      outcome: 'succeeded' as const,
      detail,
    })),
  );
}

async function newestEventId() {
  const [row] = await w.server.database.db
    .select({ last: max(events.seq) })
    .from(events)
    .where(eq(events.companyId, w.companyId));
  return row!.last!;
}

describe('GET /events, bounded', () => {
  it('refuses a stream past the caps of the company (429) and of the process (503)', async () => {
    const [admin, manager, operator, stranger] = await Promise.all(
      ['admin@a.test', 'manager@a.test', 'operator@a.test', 'stranger@b.test'].map(sessionOf),
    );
    const oldest = await open(admin!);
    const company = [oldest, await open(admin!), await open(manager!), await open(manager!)];
    expect(company.map((s) => s.status)).toEqual([200, 200, 200, 200]);
    const refused = await open(operator!);
    expect([refused.status, refused.refusal]).toEqual([
      429,
      { data: null, message: eventStreamMessages.companyFull },
    ]);
    // A user at their own cap replaces their oldest stream: the company holds no more for it.
    expect((await open(admin!)).status).toBe(200);
    await oldest.ended;

    // Another company has room of its own, until the process is full.
    expect((await open(stranger!)).status).toBe(200);
    const full = await open(stranger!);
    expect([full.status, full.refusal]).toEqual([
      503,
      { data: null, message: eventStreamMessages.serverFull },
    ]);
  });

  it('destroys a stream whose client does not read once its buffer overflows', async () => {
    const stalled = await stalledStream(await sessionOf('admin@a.test'));
    const reader = await open(await sessionOf('operator@a.test'));
    // Past the kernel's buffers and the stream's own; bounded at 10 MB.
    for (let i = 1; i <= 40 && !stalled.destroyed; i += 1) {
      await seedEvents(1, { padding: 'x'.repeat(256 * 1024) });
      await reader.waitFor(i);
    }
    await until(() => stalled.destroyed, 'the stalled stream destroyed');
    // The client that reads keeps its stream.
    const seen = reader.received.length;
    await seedEvents(1);
    expect(await reader.waitFor(seen + 1)).toHaveLength(seen + 1);
  });

  it('destroys an evicted stream whose client does not read', async () => {
    const manager = await sessionOf('manager@a.test');
    const stalled = await stalledStream(manager);
    const reader = await open(await sessionOf('operator@a.test'));
    // Until the kernel's buffers are full and the rest waits in the process.
    for (let i = 1; i <= 200 && stalled.writableLength === 0; i += 1) {
      await seedEvents(1, { padding: 'x'.repeat(64 * 1024) });
      await reader.waitFor(i);
    }
    expect(stalled.writableLength).toBeGreaterThan(0);
    expect(stalled.destroyed).toBe(false);
    await open(manager);
    await open(manager);
    await until(() => stalled.destroyed, 'the evicted stream destroyed');
  });

  it('replays at most the bound, then tells a client further behind to reload', async () => {
    await seedEvents(EVENT_REPLAY_LIMIT + 50);
    const newest = await newestEventId();
    const token = await sessionOf('admin@a.test');
    const behind = await open(token, { lastEventId: 0 });
    await behind.waitUntil(() => behind.reloads.length > 0);
    expect(behind.reloads).toEqual([newest]);
    expect(behind.received.length).toBeLessThanOrEqual(EVENT_REPLAY_LIMIT);
    // Live from there on.
    await seedEvents(1);
    await behind.waitUntil(() => behind.received.some((e) => e.id > newest));
    expect(behind.received.filter((e) => e.id > newest)).toHaveLength(1);

    const close = await open(token, { lastEventId: newest - 3 });
    const replayed = await close.waitFor(4);
    expect(replayed.map((e) => e.id)).toEqual([newest - 2, newest - 1, newest, newest + 1]);
    expect(close.reloads).toEqual([]);
  });

  it('limits how often a user opens a stream', async () => {
    const viewer = await sessionOf('viewer@a.test');
    // A malformed Last-Event-ID is answered at once: what counts is that the request came.
    const attempt = (token: string) =>
      w.server.app.inject({
        method: 'GET',
        url: '/api/v1/events',
        headers: { authorization: `Bearer ${token}`, 'last-event-id': 'yesterday' },
      });
    for (let i = 0; i < EVENT_STREAM_OPENS_PER_MINUTE; i += 1) {
      expect((await attempt(viewer)).statusCode).toBe(400);
    }
    expect((await attempt(viewer)).statusCode).toBe(429);
    expect((await attempt(await sessionOf('outsider@a.test'))).statusCode).toBe(400);
  });
});
