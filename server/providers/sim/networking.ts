import { and, eq, ne } from 'drizzle-orm';
import { parseCidr } from '../../../src/api/contract/ip';
import type { Clock } from '../../clock';
import type { Db, Tx } from '../../db/client';
import {
  ProviderRejection,
  type NetworkSpec,
  type NetworkState,
  type PortRequest,
  type PortState,
  type ProviderNetworking,
} from '../driver';
import { newRef, type RequestLedger } from '../request-ledger';
import { simCatalog } from './catalog';
import { simTaskFault, type SimFaults } from './faults';
import { simNetworks, simPorts, simServers } from './schema';

type SimNetwork = typeof simNetworks.$inferSelect;
type SimPort = typeof simPorts.$inferSelect;

export interface SimNetworkTimings {
  networkMs: number;
  portMs: number;
  ipMs: number;
}

/**
 * The sim's networks, ports and public addresses (the driver's `networking`), in the same lazy
 * style as its servers: a change records when it ends and takes effect when read after that. Ports
 * are plugged only into servers that are shut off, as on engines without hot-plug.
 */
export class SimNetworking implements ProviderNetworking {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly timings: SimNetworkTimings,
    private readonly faults: SimFaults,
    private readonly duration: (ms: number) => number,
    private readonly requests: RequestLedger,
  ) {}

  private get now() {
    return this.clock.now();
  }

  private endsAt(ms: number) {
    return new Date(this.now.getTime() + this.duration(ms));
  }

  // ---------------------------------------------------------------------------------------------
  // Networks

  private async settleNetwork(db: Db | Tx, row: SimNetwork): Promise<SimNetwork> {
    if (!row.stateEndsAt || row.stateEndsAt > this.now) return row;
    const next = row.state === 'deleting' ? 'deleted' : 'active';
    const [moved] = await db
      .update(simNetworks)
      .set({ state: next, stateEndsAt: null, updatedAt: this.now })
      .where(and(eq(simNetworks.id, row.id), eq(simNetworks.state, row.state)))
      .returning();
    return moved ?? row;
  }

  private async lockedNetwork(tx: Tx, ref: string): Promise<SimNetwork> {
    const [row] = await tx.select().from(simNetworks).where(eq(simNetworks.ref, ref)).for('update');
    if (!row) throw new ProviderRejection('No such network');
    const settled = await this.settleNetwork(tx, row);
    if (settled.state === 'deleted') throw new ProviderRejection('No such network');
    return settled;
  }

  async createNetwork(regionKey: string, spec: NetworkSpec, clientToken: string) {
    await this.faults.beforeCall('network');
    if (!simCatalog.regions.some((r) => r.key === regionKey)) {
      throw new ProviderRejection(`No such region: ${regionKey}`);
    }
    if (!parseCidr(spec.cidr)) throw new ProviderRejection(`Bad CIDR ${spec.cidr}`);
    const [created] = await this.db
      .insert(simNetworks)
      .values({
        ref: newRef('net'),
        clientToken,
        regionKey,
        spec,
        state: 'building',
        stateEndsAt: this.endsAt(this.timings.networkMs),
        createdAt: this.now,
        updatedAt: this.now,
      })
      .onConflictDoNothing({ target: simNetworks.clientToken })
      .returning({ ref: simNetworks.ref });
    if (created) return created;
    const [known] = await this.db
      .select({ ref: simNetworks.ref })
      .from(simNetworks)
      .where(eq(simNetworks.clientToken, clientToken));
    return known!;
  }

  async updateNetwork(ref: string, spec: NetworkSpec, clientToken: string) {
    await this.faults.beforeCall('network');
    await this.db.transaction(async (tx) => {
      if (!(await this.requests.first(tx, clientToken, 'network-update', ref))) return;
      const row = await this.lockedNetwork(tx, ref);
      if (row.state !== 'active') throw new ProviderRejection(`The network is ${row.state}`);
      await tx
        .update(simNetworks)
        .set({
          spec,
          state: 'updating',
          stateEndsAt: this.endsAt(this.timings.networkMs),
          updatedAt: this.now,
        })
        .where(eq(simNetworks.id, row.id));
    });
  }

  async deleteNetwork(ref: string, clientToken: string) {
    await this.faults.beforeCall('network');
    await this.db.transaction(async (tx) => {
      if (!(await this.requests.first(tx, clientToken, 'network-delete', ref))) return;
      const row = await this.lockedNetwork(tx, ref);
      const [port] = await tx
        .select({ id: simPorts.id })
        .from(simPorts)
        .where(and(eq(simPorts.networkRef, ref), ne(simPorts.state, 'deleted')))
        .limit(1);
      if (port) throw new ProviderRejection('The network still has ports');
      await tx
        .update(simNetworks)
        .set({
          state: 'deleting',
          stateEndsAt: this.endsAt(this.timings.networkMs),
          updatedAt: this.now,
        })
        .where(eq(simNetworks.id, row.id));
    });
  }

  async getNetwork(ref: string): Promise<NetworkState | null> {
    const [found] = await this.db.select().from(simNetworks).where(eq(simNetworks.ref, ref));
    if (!found) return null;
    const row = await this.settleNetwork(this.db, found);
    if (row.state === 'deleted') return null;
    return { ref: row.ref, status: row.state, fault: simTaskFault(row.fault) };
  }

  // ---------------------------------------------------------------------------------------------
  // Ports

  private async settlePort(db: Db | Tx, row: SimPort): Promise<SimPort> {
    const now = this.now;
    const values: Partial<SimPort> = {};
    if (row.stateEndsAt && row.stateEndsAt <= now) {
      values.stateEndsAt = null;
      if (row.state === 'detaching') values.state = 'deleted';
      else if (row.state === 'attaching') {
        values.state = row.taskFailure ? 'deleted' : 'active';
        values.fault = row.taskFailure;
        values.taskFailure = null;
      }
    }
    if (row.ipTaskEndsAt && row.ipTaskEndsAt <= now) {
      values.ipTaskEndsAt = null;
      values.ipTaskTarget = null;
      values.taskFailure = null;
      if (row.taskFailure) values.fault = row.taskFailure;
      else values.publicIp = row.ipTaskTarget;
    }
    if (Object.keys(values).length === 0) return row;
    const [moved] = await db
      .update(simPorts)
      .set({ ...values, updatedAt: now })
      .where(and(eq(simPorts.id, row.id), eq(simPorts.updatedAt, row.updatedAt)))
      .returning();
    if (moved) return moved;
    const [current] = await db.select().from(simPorts).where(eq(simPorts.id, row.id));
    return current!;
  }

  private async lockedPort(tx: Tx, ref: string): Promise<SimPort> {
    const [row] = await tx.select().from(simPorts).where(eq(simPorts.ref, ref)).for('update');
    if (!row) throw new ProviderRejection('No such port');
    const settled = await this.settlePort(tx, row);
    if (settled.state === 'deleted') throw new ProviderRejection('No such port');
    return settled;
  }

  /** Checks that a port can join the network: same region, address inside and free, MAC free. */
  private async checkPort(tx: Tx, regionKey: string, port: PortRequest) {
    const network = await this.lockedNetwork(tx, port.networkRef);
    if (network.regionKey !== regionKey) {
      throw new ProviderRejection('The network is in another region');
    }
    if (port.fixedIp) {
      if (!parseCidr(network.spec.cidr)?.isHost(port.fixedIp)) {
        throw new ProviderRejection(`${port.fixedIp} is not an address of ${network.spec.cidr}`);
      }
      const [taken] = await tx
        .select({ id: simPorts.id })
        .from(simPorts)
        .where(
          and(
            eq(simPorts.networkRef, port.networkRef),
            eq(simPorts.fixedIp, port.fixedIp),
            ne(simPorts.state, 'deleted'),
          ),
        );
      if (taken) throw new ProviderRejection(`${port.fixedIp} is in use on the network`);
    }
    const [sameMac] = await tx
      .select({ id: simPorts.id })
      .from(simPorts)
      .where(and(eq(simPorts.macAddress, port.macAddress), ne(simPorts.state, 'deleted')));
    if (sameMac) throw new ProviderRejection(`${port.macAddress} is in use`);
  }

  private async checkPublicIp(tx: Tx, address: string) {
    const [taken] = await tx
      .select({ id: simPorts.id })
      .from(simPorts)
      .where(and(eq(simPorts.publicIp, address), ne(simPorts.state, 'deleted')));
    if (taken) throw new ProviderRejection(`${address} is in use`);
  }

  /** The primary port, made in the server's own create call. */
  async createPrimaryPort(
    tx: Tx,
    server: { ref: string; regionKey: string },
    port: PortRequest,
    publicIp: string | null,
  ) {
    await this.checkPort(tx, server.regionKey, port);
    if (publicIp) await this.checkPublicIp(tx, publicIp);
    await tx.insert(simPorts).values({
      ref: newRef('port'),
      serverRef: server.ref,
      networkRef: port.networkRef,
      fixedIp: port.fixedIp,
      macAddress: port.macAddress,
      state: 'active',
      publicIp,
      createdAt: this.now,
      updatedAt: this.now,
    });
  }

  async serverPorts(serverRef: string) {
    return this.db
      .select({ ref: simPorts.ref, macAddress: simPorts.macAddress })
      .from(simPorts)
      .where(and(eq(simPorts.serverRef, serverRef), ne(simPorts.state, 'deleted')));
  }

  /** A deleted server's ports go with it, and their public addresses are free again. */
  async dropServerPorts(serverRef: string) {
    await this.db
      .update(simPorts)
      .set({ state: 'deleted', publicIp: null, updatedAt: this.now })
      .where(and(eq(simPorts.serverRef, serverRef), ne(simPorts.state, 'deleted')));
  }

  private async requireShutOffServer(tx: Tx, serverRef: string) {
    const [server] = await tx.select().from(simServers).where(eq(simServers.ref, serverRef));
    if (!server || server.powerState === 'deleted') throw new ProviderRejection('No such server');
    if (server.powerState !== 'shutoff' || server.task) {
      throw new ProviderRejection(
        'Ports can be plugged and unplugged only while the server is shut off',
      );
    }
    return server;
  }

  async attachPort(serverRef: string, port: PortRequest, clientToken: string) {
    await this.faults.beforeCall('port');
    return this.db.transaction(async (tx) => {
      const [known] = await tx
        .select({ ref: simPorts.ref })
        .from(simPorts)
        .where(eq(simPorts.clientToken, clientToken));
      if (known) return known;
      const server = await this.requireShutOffServer(tx, serverRef);
      await this.checkPort(tx, server.regionKey, port);
      const [created] = await tx
        .insert(simPorts)
        .values({
          ref: newRef('port'),
          clientToken,
          serverRef,
          networkRef: port.networkRef,
          fixedIp: port.fixedIp,
          macAddress: port.macAddress,
          state: 'attaching',
          stateEndsAt: this.endsAt(this.timings.portMs),
          taskFailure: this.faults.failureFor('port'),
          createdAt: this.now,
          updatedAt: this.now,
        })
        .returning({ ref: simPorts.ref });
      return created!;
    });
  }

  async detachPort(ref: string, clientToken: string) {
    await this.faults.beforeCall('port');
    await this.db.transaction(async (tx) => {
      if (!(await this.requests.first(tx, clientToken, 'port-detach', ref))) return;
      const port = await this.lockedPort(tx, ref);
      await this.requireShutOffServer(tx, port.serverRef);
      if (port.state !== 'active' || port.ipTaskEndsAt) {
        throw new ProviderRejection(`The port is busy (${port.state})`);
      }
      await tx
        .update(simPorts)
        .set({
          state: 'detaching',
          stateEndsAt: this.endsAt(this.timings.portMs),
          updatedAt: this.now,
        })
        .where(eq(simPorts.id, port.id));
    });
  }

  async getPort(ref: string): Promise<PortState | null> {
    const [found] = await this.db.select().from(simPorts).where(eq(simPorts.ref, ref));
    if (!found) return null;
    const row = await this.settlePort(this.db, found);
    // A port whose attach failed is gone, but its fault is what the caller needs to hear.
    if (row.state === 'deleted' && !row.fault) return null;
    return {
      ref: row.ref,
      serverRef: row.serverRef,
      status: row.state === 'deleted' ? 'error' : row.state,
      busy: row.ipTaskEndsAt !== null,
      publicIp: row.publicIp,
      fault: simTaskFault(row.fault),
    };
  }

  /** Starts a public address change on a port, once per client token. */
  private async changePublicIp(ref: string, clientToken: string, target: string | null) {
    await this.faults.beforeCall('ip');
    await this.db.transaction(async (tx) => {
      if (!(await this.requests.first(tx, clientToken, 'ip', ref))) return;
      const port = await this.lockedPort(tx, ref);
      if (port.state !== 'active' || port.ipTaskEndsAt) {
        throw new ProviderRejection('The port is busy');
      }
      if (target) {
        if (port.publicIp) throw new ProviderRejection('The port has a public address already');
        const network = await this.lockedNetwork(tx, port.networkRef);
        if (!network.spec.snatIp) {
          throw new ProviderRejection('Public addresses need a network with SNAT');
        }
        await this.checkPublicIp(tx, target);
      } else if (!port.publicIp) {
        throw new ProviderRejection('The port has no public address');
      }
      await tx
        .update(simPorts)
        .set({
          ipTaskEndsAt: this.endsAt(this.timings.ipMs),
          ipTaskTarget: target,
          taskFailure: this.faults.failureFor('ip'),
          fault: null,
          updatedAt: this.now,
        })
        .where(eq(simPorts.id, port.id));
    });
  }

  allocatePublicIp(portRef: string, address: string, clientToken: string) {
    return this.changePublicIp(portRef, clientToken, address);
  }

  releasePublicIp(portRef: string, clientToken: string) {
    return this.changePublicIp(portRef, clientToken, null);
  }
}
