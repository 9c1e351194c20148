import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { EngineRejection, ProviderRejection, type SnapshotState } from '../driver';
import { newRef, type RequestLedger } from '../request-ledger';
import { isRunning, type DomainState } from './domain-state';
import type { DiskPool } from './disks';
import type { LibvirtHost } from './host';
import { lvServers, lvSnapshots } from './schema';
import type { LvServer } from './server-tasks';

type LvSnapshot = typeof lvSnapshots.$inferSelect;

const NO_SNAPSHOT = /snapshot not found|no domain snapshot with matching name/i;

/** What the snapshots need of the driver. */
export interface SnapshotContext {
  db: Db;
  requests: RequestLedger;
  disks: DiskPool;
  now(): Date;
  host(key: string): LibvirtHost;
  domState(row: LvServer): Promise<DomainState | null>;
}

/**
 * A guest's snapshots, as internal qcow2 snapshots of its disk (the overlay on the image's base),
 * named by their ref. Taken by libvirt (`snapshot-create-as`): of a running guest, with its
 * memory (QEMU's savevm, which works under TCG as under KVM); of a shut-off one, of the disk
 * alone. Restored by the disk only (`qemu-img snapshot -a` on the powered-off guest's disk), not
 * libvirt's revert, which would also bring back the domain's definition of that moment (its
 * ports and size then): the product keeps those as they are now. Deleted by libvirt again, and
 * with the server's disk.
 */
export class LibvirtSnapshots {
  constructor(private readonly ctx: SnapshotContext) {}

  private async server(ref: string): Promise<LvServer | undefined> {
    const [row] = await this.ctx.db.select().from(lvServers).where(eq(lvServers.ref, ref));
    return row;
  }

  private async snapshot(ref: string): Promise<LvSnapshot | undefined> {
    const [row] = await this.ctx.db.select().from(lvSnapshots).where(eq(lvSnapshots.ref, ref));
    return row;
  }

  private update(row: LvSnapshot, values: Partial<LvSnapshot>) {
    return this.ctx.db
      .update(lvSnapshots)
      .set({ ...values, updatedAt: this.ctx.now() })
      .where(eq(lvSnapshots.id, row.id));
  }

  private async diskPath(host: LibvirtHost, server: LvServer) {
    const path = await host.virsh([
      'vol-path',
      '--pool',
      this.ctx.disks.name,
      this.ctx.disks.disk(server.domain),
    ]);
    return path.trim();
  }

  /** Takes it now (a guest's savevm takes seconds); a repeated call finishes an interrupted one. */
  async create(serverRef: string, name: string, clientToken: string): Promise<{ ref: string }> {
    const server = await this.server(serverRef);
    if (!server || server.deleted) throw new ProviderRejection('No such server');
    let [row] = await this.ctx.db
      .select()
      .from(lvSnapshots)
      .where(eq(lvSnapshots.clientToken, clientToken));
    if (!row) {
      if (server.task || server.phase === 'building') {
        throw new ProviderRejection(`The server is busy (${server.task ?? 'building'})`);
      }
      [row] = await this.ctx.db
        .insert(lvSnapshots)
        .values({
          ref: newRef('snap'),
          clientToken,
          serverRef,
          name,
          imageKey: server.imageKey,
          createdAt: this.ctx.now(),
          updatedAt: this.ctx.now(),
        })
        .onConflictDoNothing({ target: lvSnapshots.clientToken })
        .returning();
      if (!row) return this.create(serverRef, name, clientToken);
    }
    if (row.deleted || row.fault || row.sizeBytes !== null) return { ref: row.ref };
    const host = this.ctx.host(server.hostKey);
    try {
      const taken = await host.virshMaybe(['snapshot-info', server.domain, row.ref], NO_SNAPSHOT);
      if (taken === null) {
        await host.virsh(
          [
            'snapshot-create-as',
            server.domain,
            '--name',
            row.ref,
            '--description',
            name,
            '--atomic',
          ],
          { timeoutMs: 600_000 },
        );
      }
      await this.update(row, { sizeBytes: await this.measure(host, server) });
    } catch (error) {
      // Refused (no room, a disk that cannot take one): the snapshot is in error, with libvirt's words.
      if (error instanceof EngineRejection) await this.update(row, { fault: error.message });
      throw error;
    }
    return { ref: row.ref };
  }

  /**
   * What the snapshot holds on the host: the bytes the guest's disk takes when it is taken (its
   * data written since the image, and a running guest's memory), all of which the snapshot keeps.
   */
  private async measure(host: LibvirtHost, server: LvServer): Promise<number> {
    const info = await host.virsh([
      'vol-info',
      '--pool',
      this.ctx.disks.name,
      this.ctx.disks.disk(server.domain),
      '--bytes',
    ]);
    return Number(/Allocation:\s+(\d+)/.exec(info)?.[1] ?? 0);
  }

  async get(ref: string): Promise<SnapshotState | null> {
    const row = await this.snapshot(ref);
    if (!row || row.deleted) return null;
    if (row.fault) {
      return {
        ref,
        status: 'error',
        sizeBytes: null,
        fault: { engineText: row.fault, kind: 'refused' },
      };
    }
    return {
      ref,
      status: row.sizeBytes === null ? 'creating' : 'available',
      sizeBytes: row.sizeBytes,
      fault: null,
    };
  }

  /**
   * The guest's disk back to the snapshot: the guest is powered off at once (what it did since is
   * being thrown away), the disk reverted, and the guest started again if it ran. Runs inside the
   * driver's action, once per client token; answers the image the disk is of again.
   */
  async restore(
    server: LvServer,
    state: DomainState,
    snapshotRef: string,
  ): Promise<Partial<LvServer>> {
    const snapshot = await this.snapshot(snapshotRef);
    if (!snapshot || snapshot.deleted || snapshot.serverRef !== server.ref) {
      throw new ProviderRejection('No such snapshot of this server');
    }
    if (snapshot.fault || snapshot.sizeBytes === null) {
      throw new ProviderRejection('The snapshot is not available');
    }
    const host = this.ctx.host(server.hostKey);
    const disk = await this.diskPath(host, server);
    // A disk made afresh since (a reinstall) no longer holds it: refused before the guest stops.
    const held = await host.sh(`qemu-img snapshot -U -l '${disk}'\n`);
    if (!held.split('\n').some((line) => line.split(/\s+/).includes(snapshot.ref))) {
      throw new ProviderRejection("The snapshot is no longer on the server's disk");
    }
    const ran = isRunning(state);
    if (ran) await host.virshMaybe(['destroy', server.domain], /not running/i);
    try {
      await host.sh(`qemu-img snapshot -a '${snapshot.ref}' '${disk}'\n`);
    } finally {
      // Whatever happened to the disk, a guest that ran is started again.
      const now = await this.ctx.domState(server);
      if (ran && now && !isRunning(now)) await host.virsh(['start', server.domain]);
    }
    return { imageKey: snapshot.imageKey, fault: null };
  }

  async delete(ref: string, clientToken: string): Promise<void> {
    const row = await this.snapshot(ref);
    if (!row) throw new ProviderRejection('No such snapshot');
    if (row.deleted) return;
    const server = await this.server(row.serverRef);
    // With its server gone, its disk (and the snapshot in it) went too.
    if (server && !server.deleted) {
      await this.ctx
        .host(server.hostKey)
        .virshMaybe(['snapshot-delete', server.domain, row.ref], NO_SNAPSHOT);
    }
    await this.ctx.db.transaction(async (tx) => {
      await this.ctx.requests.first(tx, clientToken, 'snapshot-delete', ref);
      await tx
        .update(lvSnapshots)
        .set({ deleted: true, updatedAt: this.ctx.now() })
        .where(eq(lvSnapshots.id, row.id));
    });
  }

  /** The server's disk is gone, and its snapshots in it. */
  async dropServerSnapshots(serverRef: string) {
    await this.ctx.db
      .update(lvSnapshots)
      .set({ deleted: true, updatedAt: this.ctx.now() })
      .where(eq(lvSnapshots.serverRef, serverRef));
  }
}
