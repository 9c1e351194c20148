import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { EngineRejection, ProviderRejection, type SnapshotState } from '../driver';
import { newRef, type RequestLedger } from '../request-ledger';
import { isRunning, type DomainState } from './domain-state';
import type { DiskPool } from './disks';
import type { LibvirtHost } from './host';
import { lvServers, lvSnapshots } from './schema';
import type { LvServer } from './server-tasks';

type LvSnapshot = typeof lvSnapshots.$inferSelect;

/** What the snapshots need of the driver. */
export interface SnapshotContext {
  db: Db;
  requests: RequestLedger;
  disks: DiskPool;
  stateDir: string;
  now(): Date;
  host(key: string): LibvirtHost;
  domState(row: LvServer): Promise<DomainState | null>;
  /** Checks that the image is still offered in the server's region (before anything changes). */
  checkImage(row: LvServer, imageKey: string): void;
  /** The shut-off server's domain made fit for a disk of `imageKey`: its boot, its disk's size. */
  refit(row: LvServer, imageKey: string): Promise<void>;
}

/** What a shell script prints when the host refused the copy (no room, a disk unreadable). */
const REFUSED = 'LAUNCHPAD-REFUSED ';

/**
 * A guest's snapshots, as files of their own on its host (`<stateDir>/snapshots/<ref>.qcow2`), as
 * Glance's images are on OpenStack: copies of the guest's disk, the qcow2 overlay on its image's
 * base (which never changes), so that each keeps the same backing file and holds only what the
 * guest wrote since the image. A running guest is paused for the copy (QEMU flushes its disk
 * when it pauses), which makes it a crash-consistent copy of a moment, and resumed at once.
 * Restored by putting a copy of the file in place of the powered-off guest's disk, so that a
 * reinstall (a fresh overlay) leaves them alone and a restore after it works; the guest's image
 * becomes the snapshot's, as Nova's rebuild from a snapshot's image does.
 */
export class LibvirtSnapshots {
  constructor(private readonly ctx: SnapshotContext) {}

  private get dir() {
    return `${this.ctx.stateDir}/snapshots`;
  }

  private file(ref: string) {
    return `${this.dir}/${ref}.qcow2`;
  }

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

  /**
   * Copies `from` to `to` on the host through a partial file (so that a file at `to` is always
   * whole), readable by root alone, sparse as the qcow2 is; answers the bytes `to` takes. The
   * host refusing the copy (no room) is an EngineRejection with its words.
   */
  private async copy(host: LibvirtHost, from: string, to: string): Promise<number> {
    const out = await host.sh(
      `umask 077
mkdir -p '${this.dir}'
if ! err=$(cp --sparse=always '${from}' '${to}.part' 2>&1); then
  rm -f '${to}.part'
  echo "${REFUSED}$err"
  exit 0
fi
mv -f '${to}.part' '${to}'
stat -c '%b %B' '${to}'
`,
      { timeoutMs: 600_000 },
    );
    const refused = out.split('\n').find((line) => line.startsWith(REFUSED));
    if (refused) throw new EngineRejection(refused.slice(REFUSED.length));
    const [blocks, blockSize] = out.trim().split(/\s+/).map(Number);
    return (blocks ?? 0) * (blockSize ?? 0);
  }

  /** Takes it now (a copy of the disk takes seconds); a repeated call finishes an interrupted one. */
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
      const disk = await this.diskPath(host, server);
      const state = await this.ctx.domState(server);
      // Paused for the copy alone; one paused already (by its user) stays so.
      const pause = state?.state === 'running';
      if (pause) await host.virsh(['suspend', server.domain]);
      let sizeBytes: number;
      try {
        sizeBytes = await this.copy(host, disk, this.file(row.ref));
      } finally {
        if (pause) await host.virsh(['resume', server.domain]);
      }
      await this.update(row, { sizeBytes });
    } catch (error) {
      // Refused (no room, a guest that cannot pause): the snapshot is in error, with the host's words.
      if (error instanceof EngineRejection) await this.update(row, { fault: error.message });
      throw error;
    }
    return { ref: row.ref };
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
   * being thrown away), a copy of the snapshot put in place of its disk (the snapshot stays, to be
   * restored again), its domain made fit for the snapshot's image, and the guest started again if
   * it ran. Runs inside the driver's action, once per client token; answers the image the disk is
   * of now.
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
    this.ctx.checkImage(server, snapshot.imageKey);
    const host = this.ctx.host(server.hostKey);
    const disk = await this.diskPath(host, server);
    // Refused before the guest stops: its file is gone from the host.
    const there = await host.sh(`test -f '${this.file(snapshot.ref)}' && echo yes || true\n`);
    if (there.trim() !== 'yes') {
      throw new ProviderRejection("The snapshot's file is gone from the server's host");
    }
    const ran = isRunning(state);
    if (ran) await host.virshMaybe(['destroy', server.domain], /not running/i);
    try {
      await this.copy(host, this.file(snapshot.ref), disk);
      await this.ctx.refit(server, snapshot.imageKey);
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
    if (server) await this.ctx.host(server.hostKey).sh(`rm -f '${this.file(row.ref)}'\n`);
    await this.ctx.db.transaction(async (tx) => {
      await this.ctx.requests.first(tx, clientToken, 'snapshot-delete', ref);
      await tx
        .update(lvSnapshots)
        .set({ deleted: true, updatedAt: this.ctx.now() })
        .where(eq(lvSnapshots.id, row.id));
    });
  }

  /** The server is gone: so are the snapshots the product has not deleted first, files and all. */
  async dropServerSnapshots(server: LvServer) {
    const left = await this.ctx.db
      .select()
      .from(lvSnapshots)
      .where(and(eq(lvSnapshots.serverRef, server.ref), eq(lvSnapshots.deleted, false)));
    if (left.length > 0) {
      await this.ctx
        .host(server.hostKey)
        .sh(`rm -f ${left.map((row) => `'${this.file(row.ref)}'`).join(' ')}\n`);
    }
    await this.ctx.db
      .update(lvSnapshots)
      .set({ deleted: true, updatedAt: this.ctx.now() })
      .where(eq(lvSnapshots.serverRef, server.ref));
  }
}
