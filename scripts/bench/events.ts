import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import {
  EVENT_STREAMS_PER_COMPANY,
  EVENT_STREAMS_PER_PROCESS,
  EVENT_STREAMS_PER_USER,
} from '../../src/api/contract/activity';
import { sessions } from '../../server/db/schema';
import { virtualMachines } from '../../server/db/vm-schema';
import { SYSTEM } from '../../server/domain/events/actor';
import { recordEvent } from '../../server/domain/events/record';
import { insertSession } from '../../server/domain/identity/sessions';
import { SESSION_COOKIE } from '../../server/plugins/session-cookie';
import { startTestServer } from '../../test/server/support/harness';
import { createCompany, createUser } from '../../test/server/support/seed';
import { startVmWorld } from '../../test/server/support/vm-world';
import { medianMs, report } from './stats';

// As many as one process holds; each company holds at most EVENT_STREAMS_PER_COMPANY of them.
const STREAMS = Math.min(
  Number(process.env.EVENT_STREAMS ?? EVENT_STREAMS_PER_PROCESS),
  EVENT_STREAMS_PER_PROCESS,
);
const USERS_PER_COMPANY = Math.floor(EVENT_STREAMS_PER_COMPANY / EVENT_STREAMS_PER_USER);
const gcAvailable = typeof globalThis.gc === 'function';

/**
 * The event log's costs: what appending an event adds to a VM action, and how many idle streams
 * one process holds and at what memory each. PGlite, or PostgreSQL with DATABASE_URL. (The delay
 * from a change to a second browser's screen is measured by `events-screen.ts`.)
 */
async function appendCost() {
  const w = await startVmWorld();
  try {
    const db = w.server.database.db;
    const vmId = await w.runningVm('bench');
    const [vm] = await db.select().from(virtualMachines).where(eq(virtualMachines.id, vmId));
    const event = {
      companyId: w.companyId,
      actor: SYSTEM,
      subject: { type: 'vm' as const, id: vmId, name: 'bench' },
      action: 'vm.status' as const,
      outcome: 'observed' as const,
      teamId: vm!.teamId,
      detail: { from: 'Running', to: 'Stopping' },
      at: new Date(),
    };
    // The write the action makes anyway, alone, then with its event (insert, numbering at commit,
    // NOTIFY), so that the difference is what the log adds.
    const update = (tx: Parameters<Parameters<typeof db.transaction>[0]>[0]) =>
      tx.update(virtualMachines).set({ updatedAt: new Date() }).where(eq(virtualMachines.id, vmId));
    const runs = 300;
    const without = await medianMs(() => db.transaction(update), runs, 20);
    const withEvent = await medianMs(
      () =>
        db.transaction(async (tx) => {
          await update(tx);
          await recordEvent(tx, event);
        }),
      runs,
      20,
    );
    // The whole action as a client sees it: stop (with its two events), then back to Running.
    const action = await medianMs(async () => {
      const res = await w.call('operator', 'POST', `/virtualMachines/stop/${vmId}`);
      if (res.status !== 200) throw new Error(JSON.stringify(res));
      await db
        .update(virtualMachines)
        .set({ status: 'Running' })
        .where(eq(virtualMachines.id, vmId));
      await db.execute(sql`delete from operations where vm_id = ${vmId} and status = 'pending'`);
    }, 100);
    report([
      ['VM write in a transaction, without an event', without],
      ['the same with its event appended', withEvent],
      ['event append cost (difference)', withEvent - without],
      ['POST /virtualMachines/stop (two events)', action],
    ]);
  } finally {
    await w.close();
  }
}

/** A child process holding `count` streams open, saying when all are open and each event. */
const CLIENT = `
const http = require('node:http');
const [url, cookies] = [process.argv[1], JSON.parse(process.argv[2])];
let open = 0, heard = 0;
for (const cookie of cookies) {
  const req = http.get(url, { agent: false, headers: { cookie } }, (res) => {
    if (res.statusCode !== 200) { console.log('status ' + res.statusCode); process.exit(1); }
    if (++open === cookies.length) console.log('open');
    res.setEncoding('utf8');
    res.on('data', (chunk) => {
      if (chunk.includes('event: activity') && ++heard === cookies.length) console.log('heard ' + Date.now());
    });
  });
  req.on('error', (e) => { console.log('error ' + e.message); process.exit(1); });
}
`;

async function idleStreams() {
  const server = await startTestServer({}, { eventHeartbeatMs: 15_000 });
  try {
    await server.app.listen({ host: '127.0.0.1', port: 0 });
    const url = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}/api/v1/events`;
    const db = server.database.db;
    const users = Math.ceil(STREAMS / EVENT_STREAMS_PER_USER);
    const companyIds: number[] = [];
    const cookies: string[] = [];
    for (let i = 0; i < users; i += 1) {
      if (i % USERS_PER_COMPANY === 0) companyIds.push((await createCompany(db)).company.id);
      const user = await createUser(db, { companyId: companyIds.at(-1)!, isAdmin: true });
      const { token, sessionId } = await db.transaction((tx) =>
        insertSession(tx, { userId: user.id, rememberMe: false, now: server.clock.now() }),
      );
      await db
        .update(sessions)
        .set({ verifiedAt: server.clock.now() })
        .where(eq(sessions.id, sessionId));
      for (let s = 0; s < EVENT_STREAMS_PER_USER && cookies.length < STREAMS; s += 1) {
        cookies.push(`${SESSION_COOKIE}=${token}`);
      }
    }
    const memory = () => {
      globalThis.gc?.();
      return process.memoryUsage();
    };
    const before = memory();
    const child = spawn(process.execPath, ['-e', CLIENT, url, JSON.stringify(cookies)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const lines: string[] = [];
    let wake: () => void = () => {};
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      lines.push(...chunk.trim().split('\n'));
      wake();
    });
    const until = async (prefix: string, timeoutMs: number) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const line = lines.find((l) => l.startsWith(prefix));
        if (line) return line;
        const failed = lines.find((l) => l.startsWith('status') || l.startsWith('error'));
        if (failed) throw new Error(`stream client: ${failed}`);
        if (Date.now() > deadline) throw new Error(`stream client: no '${prefix}' in time`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 100);
        });
      }
    };
    const started = performance.now();
    await until('open', 120_000);
    const openMs = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const after = memory();
    // One event to every stream (one per company, committed together): from before the commit to
    // the last stream's receipt.
    const sent = Date.now();
    await db.transaction(async (tx) => {
      for (const companyId of companyIds) {
        await recordEvent(tx, {
          companyId,
          actor: SYSTEM,
          subject: { type: 'network', id: 1, name: 'bench' },
          action: 'network.edit',
          outcome: 'succeeded',
          at: new Date(),
        });
      }
    });
    const heard = Number((await until('heard', 60_000)).split(' ')[1]);
    child.kill();
    const perStream = (bytes: number) => `${(bytes / STREAMS / 1024).toFixed(1)} KB`;
    console.warn(
      [
        `idle streams held by one process: ${STREAMS} (${users} users x ${EVENT_STREAMS_PER_USER}, ${companyIds.length} companies), all open in ${(openMs / 1000).toFixed(1)} s`,
        `memory per stream: ${perStream(after.rss - before.rss)} RSS, ${perStream(after.heapUsed - before.heapUsed)} JS heap${gcAvailable ? '' : ' (without --expose-gc: rough)'}`,
        `one event to all ${STREAMS} streams: ${heard - sent} ms`,
      ].join('\n'),
    );
  } finally {
    await server.close();
  }
}

await appendCost();
await idleStreams();
