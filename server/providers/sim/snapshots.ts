import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { ProviderRejection, type SnapshotState } from '../driver';
import { newRef } from '../request-ledger';
import { simTaskFault, type SimFaults } from './faults';
import { simServers, simSnapshots } from './schema';

type SimSnapshot = typeof simSnapshots.$inferSelect;

export interface SimSnapshotTimings {
  /** Taking a snapshot. */
  snapshotMs: number;
  /** Deleting one. */
  snapshotDeleteMs: number;
}

/**
 * What a snapshot holds: a few hundred MiB to a few GiB, the same for the same snapshot each
 * time (a real engine reports what the disk's written blocks take).
 */
function sizeOf(ref: string): number {
  const seed = createHash('sha256').update(ref).digest();
  return (256 + ((seed.readUInt16BE(0) % 3840) as number)) * 1024 * 1024;
}

/**
 * The sim's snapshots of its servers, in `sim_snapshots`: like its servers, each state change
 * records when it ends and happens when the snapshot is read after that moment; faults armed for
 * `snapshot` and `snapshot-delete` make them fail.
 */
export class SimSnapshots {
  constructor(
    private readonly db: Db,
    private readonly faults: SimFaults,
    private readonly now: () => Date,
    private readonly duration: (ms: number) => number,
    private readonly timings: SimSnapshotTimings,
  ) {}

  private later(ms: number) {
    return new Date(this.now().getTime() + this.duration(ms));
  }

  async create(serverRef: string, name: string, clientToken: string): Promise<{ ref: string }> {
    await this.faults.beforeCall('snapshot');
    const known = await this.byToken(clientToken);
    if (known) return { ref: known.ref };
    const [server] = await this.db
      .select({ imageKey: simServers.imageKey, powerState: simServers.powerState })
      .from(simServers)
      .where(eq(simServers.ref, serverRef));
    if (!server || server.powerState === 'deleted') throw new ProviderRejection('No such server');
    if (server.powerState !== 'running' && server.powerState !== 'shutoff') {
      throw new ProviderRejection(`Cannot snapshot a server that is ${server.powerState}`);
    }
    const now = this.now();
    const [made] = await this.db
      .insert(simSnapshots)
      .values({
        ref: newRef('snap'),
        clientToken,
        serverRef,
        name,
        imageKey: server.imageKey,
        state: 'creating',
        stateEndsAt: this.later(this.timings.snapshotMs),
        taskFailure: this.faults.failureFor('snapshot'),
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing({ target: simSnapshots.clientToken })
      .returning({ ref: simSnapshots.ref });
    // Another call with the same token won the race.
    return made ?? { ref: (await this.byToken(clientToken))!.ref };
  }

  private async byToken(clientToken: string) {
    const [row] = await this.db
      .select({ ref: simSnapshots.ref })
      .from(simSnapshots)
      .where(eq(simSnapshots.clientToken, clientToken));
    return row;
  }

  /** The snapshot as it stands now (its state moved on when its time has come). */
  async row(db: Db | Tx, ref: string): Promise<SimSnapshot | undefined> {
    const [found] = await db.select().from(simSnapshots).where(eq(simSnapshots.ref, ref));
    if (!found?.stateEndsAt || found.stateEndsAt > this.now()) return found;
    const failure = found.taskFailure;
    const next: Partial<SimSnapshot> =
      found.state === 'creating'
        ? failure
          ? { state: 'error' }
          : { state: 'available', sizeBytes: sizeOf(found.ref), taskFailure: null }
        : failure
          ? { state: 'error' }
          : { state: 'deleted', taskFailure: null };
    const [moved] = await db
      .update(simSnapshots)
      .set({ ...next, stateEndsAt: null, updatedAt: this.now() })
      .where(and(eq(simSnapshots.id, found.id), eq(simSnapshots.stateEndsAt, found.stateEndsAt)))
      .returning();
    return moved ?? (await db.select().from(simSnapshots).where(eq(simSnapshots.ref, ref)))[0];
  }

  async get(ref: string): Promise<SnapshotState | null> {
    const row = await this.row(this.db, ref);
    if (!row || row.state === 'deleted') return null;
    return {
      ref: row.ref,
      status: row.state,
      sizeBytes: row.sizeBytes,
      fault: row.state === 'error' ? simTaskFault(row.taskFailure) : null,
    };
  }

  /** Deletes it, once per client token; one already deleted (or being deleted) stays so. */
  async delete(ref: string, clientToken: string, first: (tx: Tx) => Promise<boolean>) {
    await this.faults.beforeCall('snapshot-delete');
    await this.db.transaction(async (tx) => {
      if (!(await first(tx))) return;
      const row = await this.row(tx, ref);
      if (!row || row.state === 'deleted' || row.state === 'deleting') return;
      if (row.state === 'creating')
        throw new ProviderRejection('The snapshot is still being taken');
      await tx
        .update(simSnapshots)
        .set({
          state: 'deleting',
          stateEndsAt: this.later(this.timings.snapshotDeleteMs),
          taskFailure: this.faults.failureFor('snapshot-delete'),
          updatedAt: this.now(),
        })
        .where(eq(simSnapshots.id, row.id));
    });
  }

  /** The image a restore of the server from the snapshot goes back to; refused unless available. */
  async restorable(tx: Db | Tx, ref: string, serverRef: string): Promise<string> {
    const row = await this.row(tx, ref);
    if (!row || row.state === 'deleted' || row.serverRef !== serverRef) {
      throw new ProviderRejection('No such snapshot of this server');
    }
    if (row.state !== 'available') throw new ProviderRejection(`The snapshot is ${row.state}`);
    return row.imageKey;
  }
}
