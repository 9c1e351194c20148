import type { Duplex } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import type { Clock } from '../../clock';
import { configurations } from '../../db/catalog-schema';
import type { Db } from '../../db/client';
import {
  EngineRejection,
  ProviderRejection,
  type Catalog,
  type CreateServerRequest,
  type ProviderDriver,
  type ProviderHealth,
  type RebuildServerRequest,
  type ServerState,
  type SnapshotState,
} from '../driver';
import { newRef, RequestLedger } from '../request-ledger';
import type { LibvirtConfig, LibvirtImage, LibvirtRegion } from './config';
import { domainXml, vncSocketOf, type Size } from './domain-xml';
import {
  isRunning,
  isShutOff,
  parseDomState,
  parseDomStats,
  type DomainState,
} from './domain-state';
import { UsageSampler } from '../guest-usage';
import { configuredCatalog } from '../configured-catalog';
import { openUnixStream } from './console-stream';
import { DiskPool } from './disks';
import { filterFor, GuestFilterDefinitions } from './guest-filters';
import { LibvirtHost } from './host';
import { placeServer } from './placement';
import { ServerTasks, type LvServer } from './server-tasks';
import { tapName } from './host-network';
import { LibvirtNetworking } from './networking';
import { lvPorts, lvRequests, lvServers, type LvTask } from './schema';
import { hostnameOf } from '../cloud-init';
import { seedIso } from './seed';
import { LibvirtSnapshots } from './snapshots';

export interface LibvirtOptions {
  db: Db;
  clock: Clock;
  config: LibvirtConfig;
  /** A server's console page (the product's console gateway), before the viewer's ticket. */
  consoleUrl: (ref: string) => string;
}

const NO_DOMAIN = /failed to get domain|Domain not found|no domain with matching/i;

/**
 * The libvirt engine: QEMU/KVM guests defined and driven through virsh, their disks in a libvirt
 * storage pool on each host (an overlay on the image's base, and a cloud-init NoCloud seed), their
 * networks built by `LibvirtNetworking`. Long tasks (booting, ACPI shutdown, resize) advance when
 * the server is read, as the reconciler polls it, so nothing is lost if this process stops.
 */
export class LibvirtDriver implements ProviderDriver {
  readonly kind = 'libvirt';
  private readonly hosts = new Map<string, LibvirtHost>();
  private readonly regions = new Map<string, { region: LibvirtRegion; providerKey: string }>();
  readonly networking: LibvirtNetworking;
  private readonly requests = new RequestLedger(lvRequests);
  private readonly disks: DiskPool;
  private readonly filters: GuestFilterDefinitions;
  private readonly usage = new UsageSampler();
  private readonly tasks: ServerTasks;
  private readonly snapshots: LibvirtSnapshots;

  constructor(private readonly options: LibvirtOptions) {
    for (const provider of options.config.providers) {
      for (const region of provider.regions) {
        this.regions.set(region.key, { region, providerKey: provider.key });
        for (const host of region.hosts) this.hosts.set(host.key, new LibvirtHost(host));
      }
    }
    this.disks = new DiskPool(`${options.config.namePrefix}-disks`, options.config.stateDir);
    this.filters = new GuestFilterDefinitions(options.config.namePrefix);
    this.networking = new LibvirtNetworking({
      db: options.db,
      config: options.config,
      requests: this.requests,
      filters: this.filters,
      now: () => this.now,
      regionOf: (key) => this.regions.get(key)?.region,
      hostsOf: (region) => region.hosts.map((h) => this.hosts.get(h.key)!),
      host: (key) => this.host(key),
      shutOffServer: (ref) => this.shutOffServer(ref),
    });
    this.tasks = new ServerTasks({
      config: options.config,
      disks: this.disks,
      networking: this.networking,
      now: () => this.now,
      host: (key) => this.host(key),
      size: (key) => this.size(key),
      domState: (row) => this.domState(row),
      update: (row, values) => this.update(row, values),
      serialLog: (row) => this.serialLog(row),
    });
    this.snapshots = new LibvirtSnapshots({
      db: options.db,
      requests: this.requests,
      disks: this.disks,
      stateDir: options.config.stateDir,
      now: () => this.now,
      host: (key) => this.host(key),
      domState: (row) => this.domState(row),
      checkImage: (row, imageKey) => void this.image(row.regionKey, imageKey),
      refit: (row, imageKey) => this.refit(row, imageKey),
    });
  }

  private get config() {
    return this.options.config;
  }

  private get now() {
    return this.options.clock.now();
  }

  async catalog(): Promise<Catalog> {
    return configuredCatalog(this.config.providers, (region) => [...region.sizes]);
  }

  // ---------------------------------------------------------------------------------------------
  // Lookups

  private host(key: string): LibvirtHost {
    const host = this.hosts.get(key);
    if (!host) throw new EngineRejection(`The host ${key} is no longer configured`);
    return host;
  }

  private image(regionKey: string, imageKey: string): LibvirtImage {
    const image = this.regions.get(regionKey)?.region.images.find((i) => i.key === imageKey);
    if (!image) throw new ProviderRejection(`Image ${imageKey} is not offered in ${regionKey}`);
    return image;
  }

  private async size(sizeKey: string): Promise<Size> {
    const [row] = await this.options.db
      .select()
      .from(configurations)
      .where(eq(configurations.key, sizeKey));
    if (!row) throw new ProviderRejection(`Unknown size ${sizeKey}`);
    return { cpu: row.cpu, ramGb: row.ram, diskGb: row.disk };
  }

  /** The memory of the guests placed on each host, in GiB. */
  private async allocatedGb(): Promise<Map<string, number>> {
    const rows = await this.options.db
      .select({ hostKey: lvServers.hostKey, gb: sql<number>`sum(${configurations.ram})::int` })
      .from(lvServers)
      .innerJoin(configurations, eq(configurations.key, lvServers.sizeKey))
      .where(eq(lvServers.deleted, false))
      .groupBy(lvServers.hostKey);
    return new Map(rows.map((row) => [row.hostKey, Number(row.gb)]));
  }

  private async server(ref: string): Promise<LvServer | undefined> {
    const [row] = await this.options.db.select().from(lvServers).where(eq(lvServers.ref, ref));
    return row;
  }

  private async requireServer(ref: string): Promise<LvServer> {
    const row = await this.server(ref);
    if (!row || row.deleted) throw new ProviderRejection('No such server');
    return row;
  }

  /** The server, which must be at rest and shut off (ports change only then: no hot-plug). */
  private async shutOffServer(ref: string): Promise<LvServer> {
    const row = await this.requireServer(ref);
    const state = await this.domState(row);
    if (!state || !isShutOff(state) || row.task) {
      throw new ProviderRejection(
        'Ports can be plugged and unplugged only while the server is shut off',
      );
    }
    return row;
  }

  private async update(row: LvServer, values: Partial<LvServer>): Promise<LvServer> {
    const [updated] = await this.options.db
      .update(lvServers)
      .set({ ...values, updatedAt: this.now })
      .where(eq(lvServers.id, row.id))
      .returning();
    return updated!;
  }

  private async domState(row: LvServer): Promise<DomainState | null> {
    const out = await this.host(row.hostKey).virshMaybe(
      ['domstate', row.domain, '--reason'],
      NO_DOMAIN,
    );
    return out === null ? null : parseDomState(out);
  }

  private serialLog = (row: LvServer) => `${this.config.stateDir}/logs/${row.domain}.serial.log`;

  // ---------------------------------------------------------------------------------------------
  // Servers

  async createServer(request: CreateServerRequest): Promise<{ ref: string }> {
    const { db } = this.options;
    const [known] = await db
      .select()
      .from(lvServers)
      .where(eq(lvServers.clientToken, request.clientToken));
    if (known) {
      if (!known.deleted && known.phase === 'building') await this.build(known, request);
      return { ref: known.ref };
    }
    const entry = this.regions.get(request.regionKey);
    if (!entry || entry.providerKey !== request.providerKey) {
      throw new ProviderRejection(`No such region for this provider: ${request.regionKey}`);
    }
    if (!entry.region.sizes.includes(request.sizeKey as never)) {
      throw new ProviderRejection(`Size ${request.sizeKey} is not offered in ${request.regionKey}`);
    }
    this.image(request.regionKey, request.imageKey);
    const size = await this.size(request.sizeKey);
    const network = await this.networking.checkPort(request.regionKey, request.primaryPort);
    if (request.publicIp && !network.spec.snatIp) {
      throw new ProviderRejection('Public addresses need a network with SNAT');
    }
    const host = await placeServer(
      entry.region.hosts.map((h) => this.host(h.key)),
      entry.region.key,
      size.ramGb,
      await this.allocatedGb(),
    );
    const ref = newRef('srv');
    const row = await db.transaction(async (tx) => {
      const [server] = await tx
        .insert(lvServers)
        .values({
          ref,
          clientToken: request.clientToken,
          hostKey: host.key,
          domain: `${this.config.namePrefix}-${ref}`,
          name: request.name,
          regionKey: request.regionKey,
          imageKey: request.imageKey,
          sizeKey: request.sizeKey,
          task: 'spawning',
          phase: 'building',
          taskStartedAt: this.now,
        })
        .onConflictDoNothing({ target: lvServers.clientToken })
        .returning();
      if (!server) return undefined;
      await tx.insert(lvPorts).values({
        ref: newRef('port'),
        serverRef: ref,
        networkId: network.id,
        networkRef: network.ref,
        fixedIp: request.primaryPort.fixedIp,
        macAddress: request.primaryPort.macAddress,
        publicIp: request.publicIp,
      });
      return server;
    });
    if (!row) return this.createServer(request);
    await this.build(row, request);
    return { ref };
  }

  /**
   * Makes the server's disk, seed, network reservation and domain, and starts it. Every step
   * checks what exists first, so a build a restart interrupted is finished by the retried create.
   * The engine refusing a step (no such base image, QEMU failing to start) leaves nothing behind.
   */
  private async build(row: LvServer, request: CreateServerRequest) {
    const host = this.host(row.hostKey);
    const image = this.image(row.regionKey, row.imageKey);
    const size = await this.size(row.sizeKey);
    try {
      await this.disks.ensure(host);
      await this.disks.createDisk(host, row.domain, size.diskGb, image.base);
      await this.disks.createSeed(host, row.domain, () =>
        seedIso({
          instanceId: row.ref,
          hostname: hostnameOf(request.name),
          username: request.username,
          password: request.password,
          authorizedKeys: request.authorizedKeys,
        }),
      );
      const ports = await this.networking.ports(row.ref);
      for (const port of ports) await this.networking.applyById(port.networkId);
      if ((await this.domState(row)) === null) {
        await this.filters.ensure(host);
        await this.define(row, request.name, image, size);
      }
      const state = await this.domState(row);
      if (state && !isRunning(state)) await host.virsh(['start', row.domain]);
      await this.update(row, { phase: 'booting', taskStartedAt: this.now });
    } catch (error) {
      // Refused: nothing of the server stays. Unreachable: the retried create finishes the build.
      if (error instanceof ProviderRejection) await this.destroy(row).catch(() => {});
      throw error;
    }
  }

  /** Defines (or defines again) the server's domain: its image's boot, its size, its ports. */
  private async define(
    row: LvServer,
    title: string,
    image: LibvirtImage,
    size: Size,
    again = false,
  ) {
    const ports = await this.networking.ports(row.ref);
    const host = this.host(row.hostKey);
    const uuid = again ? (await host.virsh(['domuuid', row.domain])).trim() : undefined;
    await host.virsh(['define', 'FILE'], {
      file: domainXml({
        name: row.domain,
        uuid,
        title,
        acceleration: this.config.acceleration,
        size,
        image,
        pool: this.disks.name,
        disk: this.disks.disk(row.domain),
        seed: this.disks.seed(row.domain),
        interfaces: ports.map((p) => ({
          bridge: this.networking.names(p.networkId).bridge,
          macAddress: p.macAddress,
          tap: tapName(this.config.namePrefix, p.id),
          filter: { name: filterFor(this.config.namePrefix, p.fixedIp), fixedIp: p.fixedIp },
        })),
        serialLog: this.serialLog(row),
      }),
    });
  }

  /**
   * The shut-off server's domain made fit for a disk of `imageKey` put in place (a snapshot's):
   * defined again for that image's boot if it is not the server's now, and the disk grown to the
   * server's size (it may have been resized since the snapshot).
   */
  private async refit(row: LvServer, imageKey: string) {
    const size = await this.size(row.sizeKey);
    const host = this.host(row.hostKey);
    if (imageKey !== row.imageKey) {
      await this.define(row, row.name, this.image(row.regionKey, imageKey), size, true);
      // The snapshot's system booted on this server: resets restart it, as they did.
      await host.virsh(['set-lifecycle-action', row.domain, 'reboot', 'restart', '--config']);
    }
    await this.disks.growDisk(host, row.domain, size.diskGb);
  }

  /** Removes everything of a server at its host: domain, disks, snapshots, log, ports and NAT. */
  private async destroy(row: LvServer) {
    const host = this.host(row.hostKey);
    const state = await this.domState(row);
    if (state && isRunning(state)) {
      await host.virshMaybe(['destroy', row.domain], /not running|domain is not running/i);
    }
    if (state) await host.virshMaybe(['undefine', row.domain], NO_DOMAIN);
    await this.disks.remove(host, row.domain);
    await host.sh(`rm -f '${this.serialLog(row)}'\n`);
    const ports = await this.networking.ports(row.ref);
    await this.options.db
      .update(lvServers)
      .set({ deleted: true, task: null, phase: null, updatedAt: this.now })
      .where(eq(lvServers.id, row.id));
    await this.options.db
      .update(lvPorts)
      .set({ deleted: true, publicIp: null, updatedAt: this.now })
      .where(eq(lvPorts.serverRef, row.ref));
    for (const networkId of new Set(ports.map((p) => p.networkId))) {
      await this.networking.applyById(networkId);
    }
    await this.snapshots.dropServerSnapshots(row);
    this.usage.forget(row.domain);
  }

  async getServer(ref: string): Promise<ServerState | null> {
    let row = await this.server(ref);
    if (!row || row.deleted) return null;
    if (row.phase === 'building') return this.stateOf(row, null);
    let state = await this.domState(row);
    if (!state) return null;
    if (row.task) {
      row = await this.tasks.advance(row, state);
      state = (await this.domState(row)) ?? state;
    }
    return this.stateOf(row, state);
  }

  private async stateOf(row: LvServer, state: DomainState | null): Promise<ServerState> {
    const ports = await this.networking.ports(row.ref);
    let powerState: ServerState['powerState'];
    if (row.phase === 'boot-failed') powerState = 'error';
    else if (row.task === 'spawning' || !state) powerState = 'building';
    else if (isRunning(state)) powerState = 'running';
    else powerState = 'shutoff';
    return {
      ref: row.ref,
      powerState,
      task: row.task,
      sizeKey: row.sizeKey,
      ports: ports.map((p) => ({ ref: p.ref, macAddress: p.macAddress })),
      // The driver's own words about the user's guest (it did not boot, its kernel's last word).
      fault: row.fault && { engineText: row.fault, kind: 'unknown', userMessage: row.fault },
      usage:
        powerState === 'running' && !row.task
          ? await this.usage.read(row.domain, async () =>
              parseDomStats(
                await this.host(row.hostKey).virsh([
                  'domstats',
                  row.domain,
                  '--cpu-total',
                  '--balloon',
                  '--vcpu',
                ]),
              ),
            )
          : { cpu: 0, ram: 0 },
    };
  }

  /** Runs an action once per client token; `act` sees the server at rest and does the work. */
  private async action(
    name: string,
    ref: string,
    clientToken: string,
    act: (row: LvServer, state: DomainState) => Promise<Partial<LvServer> | void>,
  ) {
    const row = await this.requireServer(ref);
    if (await this.requests.seen(this.options.db, clientToken)) return;
    const state = await this.domState(row);
    if (!state) throw new ProviderRejection('The server is gone from its host');
    if (row.task) throw new ProviderRejection(`The server is busy (${row.task})`);
    const values = await act(row, state);
    await this.options.db.transaction(async (tx) => {
      await this.requests.first(tx, clientToken, name, ref);
      if (values) {
        await tx
          .update(lvServers)
          .set({ ...values, updatedAt: this.now })
          .where(eq(lvServers.id, row.id));
      }
    });
  }

  private task(
    task: LvTask,
    phase: string | null,
    extra: Partial<LvServer> = {},
  ): Partial<LvServer> {
    return { task, phase, taskStartedAt: this.now, fault: null, ...extra };
  }

  startServer(ref: string, clientToken: string) {
    return this.action('start', ref, clientToken, async (row, state) => {
      if (isRunning(state)) return;
      await this.host(row.hostKey).virsh(['start', row.domain]);
    });
  }

  stopServer(ref: string, clientToken: string) {
    return this.action('stop', ref, clientToken, async (row, state) => {
      if (isShutOff(state)) return;
      await this.host(row.hostKey).virsh(['shutdown', row.domain, '--mode', 'acpi']);
      return this.task('powering-off', null);
    });
  }

  /** A clean reboot as Nova's soft reboot: ACPI shutdown (forced after the time-out), then start. */
  rebootServer(ref: string, clientToken: string) {
    return this.action('reboot', ref, clientToken, async (row, state) => {
      if (!isRunning(state)) throw new ProviderRejection('Cannot reboot a server that is shut off');
      await this.host(row.hostKey).virsh(['shutdown', row.domain, '--mode', 'acpi']);
      return this.task('rebooting', 'shutting-down');
    });
  }

  /** Offline: shut down, change vCPUs and memory, grow the disk, start again if it ran. */
  resizeServer(ref: string, sizeKey: string, clientToken: string) {
    return this.action('resize', ref, clientToken, async (row, state) => {
      const region = this.regions.get(row.regionKey)?.region;
      if (!region?.sizes.includes(sizeKey as never)) {
        throw new ProviderRejection(`Size ${sizeKey} is not offered in ${row.regionKey}`);
      }
      await this.size(sizeKey);
      const running = isRunning(state);
      if (running) await this.host(row.hostKey).virsh(['shutdown', row.domain, '--mode', 'acpi']);
      return this.task('resizing', running ? 'shutting-down' : 'applying', {
        taskSizeKey: sizeKey,
        taskResume: running,
      });
    });
  }

  /**
   * Reinstall: the guest is powered off at once (its disk is about to be wiped, there is nothing
   * to shut down cleanly), its disk made afresh as an overlay of the image's base (at its size's
   * capacity) with a new seed for the new credentials, and its domain defined again for the
   * image's boot, with the same ports and MACs. A guest that ran (or failed to boot) starts again
   * and is `rebuilding` until it has booted; one that was shut off stays so.
   */
  rebuildServer(ref: string, request: RebuildServerRequest) {
    return this.action('rebuild', ref, request.clientToken, async (row, state) => {
      const image = this.image(row.regionKey, request.imageKey);
      const size = await this.size(row.sizeKey);
      const host = this.host(row.hostKey);
      const resume = isRunning(state) || row.phase === 'boot-failed';
      if (!isShutOff(state)) {
        await host.virshMaybe(['destroy', row.domain], /not running|domain is not running/i);
      }
      await this.disks.remove(host, row.domain);
      await this.disks.createDisk(host, row.domain, size.diskGb, image.base);
      await this.disks.createSeed(host, row.domain, () =>
        seedIso({
          // A new instance id: cloud-init takes the seed as a new instance's, and runs it all.
          instanceId: `${row.ref}-${request.clientToken.slice(0, 8)}`,
          hostname: hostnameOf(row.name),
          username: request.username,
          password: request.password,
          authorizedKeys: request.authorizedKeys,
        }),
      );
      await this.define(row, row.name, image, size, true);
      if (!resume) {
        await host.virsh(['set-lifecycle-action', row.domain, 'reboot', 'restart', '--config']);
        return { imageKey: request.imageKey, phase: null, fault: null };
      }
      await host.virsh(['start', row.domain]);
      this.usage.forget(row.domain);
      return this.task('rebuilding', 'booting', { taskImageKey: request.imageKey });
    });
  }

  createSnapshot(serverRef: string, name: string, clientToken: string) {
    return this.snapshots.create(serverRef, name, clientToken);
  }

  getSnapshot(ref: string): Promise<SnapshotState | null> {
    return this.snapshots.get(ref);
  }

  /** Powered off at once, the snapshot's copy as its disk, started again if it ran: done now. */
  restoreSnapshot(serverRef: string, snapshotRef: string, clientToken: string) {
    return this.action('restore', serverRef, clientToken, (row, state) =>
      this.snapshots.restore(row, state, snapshotRef),
    );
  }

  deleteSnapshot(ref: string, clientToken: string) {
    return this.snapshots.delete(ref, clientToken);
  }

  async deleteServer(ref: string, clientToken: string) {
    const row = await this.server(ref);
    if (!row) throw new ProviderRejection('No such server');
    if (row.deleted) return;
    await this.destroy(row);
    await this.options.db.transaction((tx) => this.requests.first(tx, clientToken, 'delete', ref));
  }

  async consoleUrl(ref: string): Promise<string> {
    const row = await this.requireServer(ref);
    const state = await this.domState(row);
    if (!state || !isRunning(state) || row.task) {
      throw new ProviderRejection('The console is available only for a running server');
    }
    return this.options.consoleUrl(ref);
  }

  /** The guest's VNC server: a unix socket on its host, reached through the host's `run` prefix. */
  async openConsole(ref: string): Promise<Duplex> {
    const row = await this.requireServer(ref);
    const host = this.host(row.hostKey);
    const socket = vncSocketOf(await host.virsh(['dumpxml', row.domain]));
    if (!socket) throw new ProviderRejection('The server has no console while it is shut off');
    return openUnixStream(host, socket);
  }

  async health(): Promise<ProviderHealth> {
    const started = performance.now();
    const latencyMs = () => Math.round((performance.now() - started) * 100) / 100;
    try {
      await Promise.all([...this.hosts.values()].map((host) => host.virsh(['version'])));
      return { ok: true, latencyMs: latencyMs() };
    } catch (error) {
      return {
        ok: false,
        latencyMs: latencyMs(),
        detail: error instanceof Error ? error.message : String(error),
      };
    }
  }
}
