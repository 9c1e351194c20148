import type { LibvirtConfig } from './config';
import type { Size } from './domain-xml';
import { isRunning, isShutOff, type DomainState } from './domain-state';
import type { DiskPool } from './disks';
import type { LibvirtHost } from './host';
import type { lvNetworks, lvPorts, lvServers } from './schema';

export type LvServer = typeof lvServers.$inferSelect;
type LvNetwork = typeof lvNetworks.$inferSelect;
type LvPort = typeof lvPorts.$inferSelect;

/** A guest on a network without DHCP counts as booted once it has run this long. */
const UNMANAGED_BOOT_MS = 10_000;

/**
 * What the tasks need of the networking (LibvirtNetworking; named here, it would close an import
 * cycle through the port plugging): a server's ports, and whether the guest took its lease.
 */
export interface TaskNetworking {
  ports(serverRef: string): Promise<LvPort[]>;
  networkById(id: number): Promise<LvNetwork>;
  hasLease(port: LvPort): Promise<boolean>;
}

/** What the tasks need of the driver. */
export interface TaskContext {
  config: LibvirtConfig;
  disks: DiskPool;
  networking: TaskNetworking;
  now(): Date;
  host(key: string): LibvirtHost;
  size(sizeKey: string): Promise<Size>;
  domState(row: LvServer): Promise<DomainState | null>;
  update(row: LvServer, values: Partial<LvServer>): Promise<LvServer>;
  serialLog(row: LvServer): string;
}

/**
 * A server's long tasks, moved on each time the server is read (the reconciler polls it every
 * second): the first boot, an ACPI shutdown that is forced after the time-out, Nova's soft reboot
 * (shutdown, then start), and an offline resize (shutdown, new vCPUs, memory and disk, start).
 * Each step looks at the domain first, so a step repeated after a restart does no harm.
 */
export class ServerTasks {
  constructor(private readonly ctx: TaskContext) {}

  /** Moves a task on, from what the host shows now. */
  async advance(row: LvServer, state: DomainState): Promise<LvServer> {
    const host = this.ctx.host(row.hostKey);
    const elapsed = this.ctx.now().getTime() - (row.taskStartedAt?.getTime() ?? 0);
    const stopTimeout = this.ctx.config.stopTimeoutSeconds * 1000;
    const done = (values: Partial<LvServer> = {}) =>
      this.ctx.update(row, {
        task: null,
        phase: null,
        taskStartedAt: null,
        taskSizeKey: null,
        taskResume: false,
        ...values,
      });

    switch (row.task) {
      case 'spawning': {
        if (isShutOff(state)) {
          return done({ phase: 'boot-failed', fault: await this.bootFailure(row, state) });
        }
        if (await this.booted(row, elapsed)) {
          await this.restartOnReboot(row, ['--live', '--config']);
          return done({ fault: null });
        }
        if (elapsed > this.ctx.config.bootTimeoutSeconds * 1000) {
          await host.virshMaybe(['destroy', row.domain], /not running/i);
          return done({
            phase: 'boot-failed',
            fault: `The guest did not finish booting within ${this.ctx.config.bootTimeoutSeconds} s (it asked for no address)`,
          });
        }
        return row;
      }
      // The guest boots from its new disk: as on a network without DHCP (its old lease is still
      // on record), it counts as booted once it has run a while without stopping.
      case 'rebuilding': {
        if (isShutOff(state)) {
          return done({ phase: 'boot-failed', fault: await this.bootFailure(row, state) });
        }
        if (elapsed > UNMANAGED_BOOT_MS) {
          await this.restartOnReboot(row, ['--live', '--config']);
          return done({ imageKey: row.taskImageKey!, taskImageKey: null, fault: null });
        }
        return row;
      }
      case 'powering-off': {
        if (isShutOff(state)) return done({ fault: null });
        if (elapsed > stopTimeout) {
          await host.virshMaybe(['destroy', row.domain], /not running/i);
          return done({ fault: null });
        }
        return row;
      }
      case 'rebooting':
      case 'resizing': {
        if (row.phase === 'shutting-down') {
          if (!isShutOff(state)) {
            if (elapsed <= stopTimeout) return row;
            await host.virshMaybe(['destroy', row.domain], /not running/i);
          }
          row = await this.ctx.update(row, {
            phase: row.task === 'resizing' ? 'applying' : 'starting',
          });
        }
        if (row.phase === 'applying') {
          await this.applySize(row, host);
          if (!row.taskResume) return done({ sizeKey: row.taskSizeKey!, fault: null });
          row = await this.ctx.update(row, { sizeKey: row.taskSizeKey!, phase: 'starting' });
        }
        if (row.phase === 'starting') {
          const now = await this.ctx.domState(row);
          if (now && !isRunning(now)) await host.virsh(['start', row.domain]);
          return done({ fault: null });
        }
        return row;
      }
      default:
        return row;
    }
  }

  /** From now on a reboot inside the guest restarts it (see domainXml). */
  async restartOnReboot(row: LvServer, scope: string[]) {
    await this.ctx
      .host(row.hostKey)
      .virsh(['set-lifecycle-action', row.domain, 'reboot', 'restart', ...scope]);
  }

  /** The guest has booted: it took its DHCP lease, or (on a network without DHCP) it has run a while. */
  async booted(row: LvServer, elapsed: number): Promise<boolean> {
    const [primary] = await this.ctx.networking.ports(row.ref);
    if (!primary) return elapsed > UNMANAGED_BOOT_MS;
    const network = await this.ctx.networking.networkById(primary.networkId);
    if (!network.spec.dhcp) return elapsed > UNMANAGED_BOOT_MS;
    return this.ctx.networking.hasLease(primary);
  }

  /** Why a guest stopped while booting: libvirt's reason, and the kernel's last word if it panicked. */
  async bootFailure(row: LvServer, state: DomainState): Promise<string> {
    const crashed = state.reason === 'crashed' || state.state === 'crashed';
    const panic = (
      await this.ctx
        .host(row.hostKey)
        .sh(
          `grep -a -m1 -o 'Kernel panic - not syncing: .*' '${this.ctx.serialLog(row)}' || true\n`,
        )
        .catch(() => '')
    ).trim();
    const what = crashed ? 'the guest crashed' : 'the guest reset or powered off while booting';
    return `The server did not boot: ${what}${panic ? ` (${panic.replace(/\s+$/, '')})` : ''}`;
  }

  async applySize(row: LvServer, host: LibvirtHost) {
    const size = await this.ctx.size(row.taskSizeKey!);
    const kib = String(size.ramGb * 1024 * 1024);
    await host.virsh(['setvcpus', row.domain, String(size.cpu), '--config', '--maximum']);
    await host.virsh(['setvcpus', row.domain, String(size.cpu), '--config']);
    await host.virsh(['setmaxmem', row.domain, kib, '--config']);
    await host.virsh(['setmem', row.domain, kib, '--config']);
    await this.ctx.disks.growDisk(host, row.domain, size.diskGb);
  }
}
