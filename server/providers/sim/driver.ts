import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Clock } from '../../clock';
import type { Db, Tx } from '../../db/client';
import {
  ProviderRejection,
  type CreateServerRequest,
  type ProviderDriver,
  type RebuildServerRequest,
  type ServerState,
  type SnapshotState,
} from '../driver';
import { newRef, RequestLedger } from '../request-ledger';
import { simCatalog } from './catalog';
import { SimFaults, simTaskFault, type SimAction } from './faults';
import { SimNetworking } from './networking';
import { SimSnapshots } from './snapshots';
import { SimTextConsole } from './text-console';
import { simRequests, simServers, type SimPowerState, type SimTask } from './schema';

export interface SimTimings {
  provisionMs: number;
  /** Start and stop. */
  powerMs: number;
  rebootMs: number;
  resizeMs: number;
  deleteMs: number;
  networkMs: number;
  /** Plugging and unplugging a port. */
  portMs: number;
  /** NATing a public address to a port, or removing it. */
  ipMs: number;
  /** Taking, restoring and deleting a snapshot (the resize's and delete's times when left out). */
  snapshotMs?: number;
  restoreMs?: number;
  snapshotDeleteMs?: number;
  /** Each duration varies by up to this fraction either way, as real engines do. */
  jitter: number;
}

export const defaultSimTimings: SimTimings = {
  provisionMs: 8_000,
  powerMs: 3_000,
  rebootMs: 4_000,
  resizeMs: 10_000,
  deleteMs: 2_000,
  networkMs: 1_500,
  portMs: 3_000,
  ipMs: 1_000,
  snapshotMs: 6_000,
  restoreMs: 8_000,
  snapshotDeleteMs: 2_000,
  jitter: 0.2,
};

export interface SimOptions {
  db: Db;
  clock: Clock;
  timings: SimTimings;
  /** The address of a server's console page, before the viewer's ticket. */
  consoleUrl: (ref: string) => string;
}

type SimServer = typeof simServers.$inferSelect;

const sizes = new Set(simCatalog.providers.flatMap((p) => p.offers.flatMap((o) => o.sizeKeys)));

/** What a finished task leaves behind. */
function settled(row: SimServer): Partial<SimServer> {
  const failure = row.taskFailure;
  const rest = {
    task: null,
    taskEndsAt: null,
    taskSizeKey: null,
    taskImageKey: null,
    taskFailure: null,
  };
  switch (row.task) {
    case 'spawning':
      return failure
        ? { ...rest, powerState: 'error', fault: failure }
        : { ...rest, powerState: 'running' };
    case 'powering-on':
      return failure ? { ...rest, fault: failure } : { ...rest, powerState: 'running' };
    case 'powering-off':
      return { ...rest, powerState: 'shutoff' };
    case 'rebooting':
      return failure ? { ...rest, fault: failure } : { ...rest, powerState: 'running' };
    case 'resizing':
      return failure ? { ...rest, fault: failure } : { ...rest, sizeKey: row.taskSizeKey! };
    case 'deleting':
      return failure ? { ...rest, fault: failure } : { ...rest, powerState: 'deleted' };
    // The disk is the snapshot's again, of the image it was taken of; a failure leaves it as it was.
    case 'restoring':
      return failure ? { ...rest, fault: failure } : { ...rest, imageKey: row.taskImageKey! };
    // As Nova: a failed rebuild leaves the server in error; a server in error runs once rebuilt.
    case 'rebuilding':
      return failure
        ? { ...rest, powerState: 'error', fault: failure }
        : {
            ...rest,
            imageKey: row.taskImageKey!,
            powerState: row.powerState === 'shutoff' ? 'shutoff' : 'running',
          };
    default:
      return {};
  }
}

/** Load figures that wander over minutes, different for each server. */
function usageOf(row: SimServer, now: Date): ServerState['usage'] {
  if (row.powerState !== 'running') return { cpu: 0, ram: 0 };
  const seed = createHash('sha256').update(row.ref).digest();
  const phase = (seed[0]! / 255) * 2 * Math.PI;
  const t = now.getTime() / 1000;
  const cpu = 30 + 20 * Math.sin(t / 90 + phase) + 8 * Math.sin(t / 13 + 2 * phase);
  const ram = 45 + 12 * Math.sin(t / 600 + phase) + 3 * Math.sin(t / 29);
  const round = (v: number) => Math.round(Math.min(99, Math.max(1, v)) * 10) / 10;
  return { cpu: round(cpu), ram: round(ram) };
}

/**
 * The embedded engine. Its state is in its own tables, and time does the work: a task records when
 * it ends, and the server reaches its next state when it is read after that moment. So the engine
 * needs no timers of its own, keeps going across restarts, and is shared by several processes.
 */
export class SimDriver implements ProviderDriver {
  readonly kind = 'sim';
  readonly faults = new SimFaults();
  readonly networking: SimNetworking;
  private readonly requests = new RequestLedger(simRequests, () => this.now);
  private readonly snapshots: SimSnapshots;

  constructor(private readonly options: SimOptions) {
    this.networking = new SimNetworking(
      options.db,
      options.clock,
      options.timings,
      this.faults,
      (ms) => this.duration(ms),
      this.requests,
    );
    const { timings } = options;
    this.snapshots = new SimSnapshots(
      options.db,
      this.faults,
      () => this.now,
      (ms) => this.duration(ms),
      {
        snapshotMs: timings.snapshotMs ?? timings.resizeMs,
        snapshotDeleteMs: timings.snapshotDeleteMs ?? timings.deleteMs,
      },
    );
  }

  private get now() {
    return this.options.clock.now();
  }

  private duration(ms: number): number {
    const { jitter } = this.options.timings;
    return Math.round(ms * (1 + jitter * (Math.random() * 2 - 1)));
  }

  async catalog() {
    return simCatalog;
  }

  async createServer(request: CreateServerRequest): Promise<{ ref: string }> {
    await this.faults.beforeCall('create');
    const { db } = this.options;
    const [known] = await db
      .select({ ref: simServers.ref })
      .from(simServers)
      .where(eq(simServers.clientToken, request.clientToken));
    if (known) return known;

    const offer = simCatalog.providers
      .find((p) => p.key === request.providerKey)
      ?.offers.find((o) => o.regionKey === request.regionKey);
    if (!offer)
      throw new ProviderRejection(`No such region for this provider: ${request.regionKey}`);
    if (!offer.imageKeys.includes(request.imageKey)) {
      throw new ProviderRejection(
        `Image ${request.imageKey} is not offered in ${request.regionKey}`,
      );
    }
    if (!offer.sizeKeys.includes(request.sizeKey)) {
      throw new ProviderRejection(`Size ${request.sizeKey} is not offered in ${request.regionKey}`);
    }

    const now = this.now;
    const taskFailure = this.faults.failureFor('create');
    const created = await db.transaction(async (tx) => {
      const [server] = await tx
        .insert(simServers)
        .values({
          ref: newRef('srv'),
          clientToken: request.clientToken,
          name: request.name,
          regionKey: request.regionKey,
          imageKey: request.imageKey,
          sizeKey: request.sizeKey,
          publicKey: request.generatedPublicKey ?? null,
          authorizedKeys: request.authorizedKeys,
          powerState: 'building',
          task: 'spawning',
          taskEndsAt: new Date(now.getTime() + this.duration(this.options.timings.provisionMs)),
          taskFailure,
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoNothing({ target: simServers.clientToken })
        .returning({ ref: simServers.ref });
      if (server) {
        await this.networking.createPrimaryPort(
          tx,
          { ref: server.ref, regionKey: request.regionKey },
          request.primaryPort,
          request.publicIp,
        );
      }
      return server;
    });
    if (created) return created;
    // Another call with the same token won the race.
    const [winner] = await db
      .select({ ref: simServers.ref })
      .from(simServers)
      .where(eq(simServers.clientToken, request.clientToken));
    return winner!;
  }

  /** Moves a server whose task has ended to its next state; answers the row as it now stands. */
  private async settle(db: Db | Tx, row: SimServer): Promise<SimServer> {
    if (!row.task || !row.taskEndsAt || row.taskEndsAt > this.now) return row;
    const [moved] = await db
      .update(simServers)
      .set({ ...settled(row), updatedAt: this.now })
      .where(
        and(
          eq(simServers.id, row.id),
          eq(simServers.task, row.task),
          eq(simServers.taskEndsAt, row.taskEndsAt),
        ),
      )
      .returning();
    if (moved) return moved;
    const [current] = await db.select().from(simServers).where(eq(simServers.id, row.id));
    return current!;
  }

  async getServer(ref: string): Promise<ServerState | null> {
    const { db } = this.options;
    const [found] = await db.select().from(simServers).where(eq(simServers.ref, ref));
    if (!found) return null;
    const row = await this.settle(db, found);
    if (row.powerState === 'deleted') {
      await this.networking.dropServerPorts(row.ref);
      return null;
    }
    return {
      ref: row.ref,
      powerState: row.powerState,
      task: row.task,
      sizeKey: row.sizeKey,
      ports: await this.networking.serverPorts(row.ref),
      fault: simTaskFault(row.fault),
      usage: usageOf(row, this.now),
    };
  }

  /**
   * Starts a task on a server, once per client token. The precondition is checked under the row's
   * lock, so two different requests cannot both start a task.
   */
  private async act(
    action: SimAction,
    ref: string,
    clientToken: string,
    start: (row: SimServer) => {
      task: SimTask;
      ms: number;
      sizeKey?: string;
      /** What else the task's start records of the server (the image a rebuild goes to…). */
      set?: Partial<SimServer>;
    },
  ): Promise<void> {
    await this.faults.beforeCall(action);
    await this.options.db.transaction(async (tx) => {
      if (!(await this.requests.first(tx, clientToken, action, ref))) return;
      const [locked] = await tx
        .select()
        .from(simServers)
        .where(eq(simServers.ref, ref))
        .for('update');
      if (!locked) throw new ProviderRejection('No such server');
      const row = await this.settle(tx, locked);
      if (row.powerState === 'deleted') throw new ProviderRejection('No such server');
      if (row.task && action !== 'delete') {
        throw new ProviderRejection(`The server is busy (${row.task})`);
      }
      const next = start(row);
      await tx
        .update(simServers)
        .set({
          task: next.task,
          taskEndsAt: new Date(this.now.getTime() + this.duration(next.ms)),
          taskSizeKey: next.sizeKey ?? null,
          ...next.set,
          taskFailure: this.faults.failureFor(action),
          fault: null,
          updatedAt: this.now,
        })
        .where(eq(simServers.id, row.id));
    });
  }

  private requireState(row: SimServer, states: SimPowerState[], what: string) {
    if (!states.includes(row.powerState)) {
      throw new ProviderRejection(`Cannot ${what} a server that is ${row.powerState}`);
    }
  }

  startServer(ref: string, clientToken: string) {
    return this.act('start', ref, clientToken, (row) => {
      this.requireState(row, ['shutoff'], 'start');
      return { task: 'powering-on', ms: this.options.timings.powerMs };
    });
  }

  stopServer(ref: string, clientToken: string) {
    return this.act('stop', ref, clientToken, (row) => {
      this.requireState(row, ['running'], 'stop');
      return { task: 'powering-off', ms: this.options.timings.powerMs };
    });
  }

  rebootServer(ref: string, clientToken: string) {
    return this.act('reboot', ref, clientToken, (row) => {
      this.requireState(row, ['running'], 'reboot');
      return { task: 'rebooting', ms: this.options.timings.rebootMs };
    });
  }

  resizeServer(ref: string, sizeKey: string, clientToken: string) {
    return this.act('resize', ref, clientToken, (row) => {
      this.requireState(row, ['running', 'shutoff'], 'resize');
      if (!sizes.has(sizeKey)) throw new ProviderRejection(`Unknown size ${sizeKey}`);
      return { task: 'resizing', ms: this.options.timings.resizeMs, sizeKey };
    });
  }

  /**
   * Reinstalls the server: the image it goes to and the keys the guest is given are recorded at
   * once; the image takes effect when the task ends (as long as a first boot).
   */
  rebuildServer(ref: string, request: RebuildServerRequest) {
    return this.act('rebuild', ref, request.clientToken, (row) => {
      this.requireState(row, ['running', 'shutoff', 'error'], 'rebuild');
      const offered = simCatalog.images.some(
        (i) => i.regionKey === row.regionKey && i.key === request.imageKey,
      );
      if (!offered) {
        throw new ProviderRejection(`Image ${request.imageKey} is not offered in ${row.regionKey}`);
      }
      return {
        task: 'rebuilding',
        ms: this.options.timings.provisionMs,
        set: {
          taskImageKey: request.imageKey,
          publicKey: request.generatedPublicKey ?? null,
          authorizedKeys: request.authorizedKeys,
        },
      };
    });
  }

  deleteServer(ref: string, clientToken: string) {
    return this.act('delete', ref, clientToken, () => ({
      task: 'deleting',
      ms: this.options.timings.deleteMs,
    }));
  }

  createSnapshot(serverRef: string, name: string, clientToken: string) {
    return this.snapshots.create(serverRef, name, clientToken);
  }

  getSnapshot(ref: string): Promise<SnapshotState | null> {
    return this.snapshots.get(ref);
  }

  /** The server's disk back to the snapshot: running or shut off, it stays so afterwards. */
  async restoreSnapshot(serverRef: string, snapshotRef: string, clientToken: string) {
    const imageKey = await this.snapshots.restorable(this.options.db, snapshotRef, serverRef);
    const { restoreMs, resizeMs } = this.options.timings;
    return this.act('restore', serverRef, clientToken, (row) => {
      this.requireState(row, ['running', 'shutoff'], 'restore');
      return { task: 'restoring', ms: restoreMs ?? resizeMs, set: { taskImageKey: imageKey } };
    });
  }

  deleteSnapshot(ref: string, clientToken: string) {
    return this.snapshots.delete(ref, clientToken, (tx) =>
      this.requests.first(tx, clientToken, 'snapshot-delete', ref),
    );
  }

  async consoleUrl(ref: string): Promise<string> {
    await this.faults.beforeCall('console');
    const server = await this.getServer(ref);
    if (!server || server.powerState !== 'running' || server.task) {
      throw new ProviderRejection('The console is available only for a running server');
    }
    return this.options.consoleUrl(ref);
  }

  /** The text console of a running server, as the sim's console page shows it. */
  async openTextConsole(ref: string): Promise<SimTextConsole> {
    await this.faults.beforeCall('console');
    const server = await this.getServer(ref);
    const row = server?.powerState === 'running' ? await this.describe(ref) : undefined;
    if (!row) throw new ProviderRejection('The console is available only for a running server');
    const image =
      simCatalog.images.find((i) => i.regionKey === row.regionKey && i.key === row.imageKey)
        ?.name ?? row.imageKey;
    return new SimTextConsole({
      host: row.name,
      banner: `${image} ${row.name} tty1\n\nConnected to ${row.ref} in ${row.regionKey}.`,
    });
  }

  /** The guest shuts itself down (an OS shutdown or a crash), without any request. */
  async guestShutdown(ref: string): Promise<void> {
    await this.options.db
      .update(simServers)
      .set({ powerState: 'shutoff', updatedAt: this.now })
      .where(and(eq(simServers.ref, ref), eq(simServers.powerState, 'running')));
  }

  /** A server's row as its console shows it. */
  private async describe(ref: string) {
    const [row] = await this.options.db.select().from(simServers).where(eq(simServers.ref, ref));
    return row;
  }

  async health() {
    const started = performance.now();
    try {
      await this.faults.beforeCall('health');
      await this.options.db.execute(sql`select 1 from ${simServers} limit 1`);
      return { ok: true, latencyMs: Math.round((performance.now() - started) * 100) / 100 };
    } catch (error) {
      return {
        ok: false,
        latencyMs: Math.round((performance.now() - started) * 100) / 100,
        detail: error instanceof Error ? error.message : String(error),
      };
    }
  }
}
