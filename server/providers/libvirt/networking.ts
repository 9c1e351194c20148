import { and, eq, sql } from 'drizzle-orm';
import { parseCidr } from '../../../src/api/contract/ip';
import type { Db } from '../../db/client';
import {
  ProviderRejection,
  type NetworkSpec,
  type NetworkState,
  type PortRequest,
  type PortState,
  type ProviderNetworking,
} from '../driver';
import { newRef, type RequestLedger } from '../request-ledger';
import type { LibvirtConfig, LibvirtRegion } from './config';
import type { LibvirtHost } from './host';
import {
  applyScript,
  bridgeExists,
  leasedMacs,
  networkNames,
  removeScript,
  type NetworkNames,
} from './host-network';
import { PortPlugging, type PortContext } from './ports';
import { lvNetworks, lvPorts } from './schema';

type LvNetwork = typeof lvNetworks.$inferSelect;
type LvPort = typeof lvPorts.$inferSelect;

/** What the networking needs of the driver: its records, regions, hosts and servers. */
export interface NetworkingContext extends Omit<PortContext, 'networking'> {
  regionOf(key: string): LibvirtRegion | undefined;
  hostsOf(region: LibvirtRegion): LibvirtHost[];
}

/**
 * The libvirt driver's networks, ports and public addresses: its `networking`. The records say
 * what should be; each change rewrites the network's state on its hosts from them (`apply`), so a
 * host that lost it (a reboot) is rebuilt by the next look.
 */
export class LibvirtNetworking implements ProviderNetworking {
  private readonly db: Db;
  private readonly config: LibvirtConfig;
  private readonly requests: RequestLedger;
  private readonly regionOf: NetworkingContext['regionOf'];
  private readonly hostsOf: NetworkingContext['hostsOf'];
  /** A server's further ports, plugged into and out of its domain's definition. */
  private readonly plugging: PortPlugging;

  constructor(ctx: NetworkingContext) {
    this.db = ctx.db;
    this.config = ctx.config;
    this.requests = ctx.requests;
    this.regionOf = ctx.regionOf;
    this.hostsOf = ctx.hostsOf;
    this.plugging = new PortPlugging({ ...ctx, networking: this });
  }

  names(networkId: number): NetworkNames {
    return networkNames(this.config.namePrefix, this.config.stateDir, networkId);
  }

  private region(key: string): LibvirtRegion {
    const region = this.regionOf(key);
    if (!region) throw new ProviderRejection(`No such region: ${key}`);
    return region;
  }

  async network(ref: string): Promise<LvNetwork> {
    const [row] = await this.db.select().from(lvNetworks).where(eq(lvNetworks.ref, ref));
    if (!row || row.deleted) throw new ProviderRejection('No such network');
    return row;
  }

  async networkById(id: number): Promise<LvNetwork> {
    const [row] = await this.db.select().from(lvNetworks).where(eq(lvNetworks.id, id));
    return row!;
  }

  /** Rewrites the network on every host of its region from its records. */
  async apply(network: LvNetwork): Promise<void> {
    const region = this.region(network.regionKey);
    const names = this.names(network.id);
    if (network.deleted) {
      await Promise.all(this.hostsOf(region).map((host) => host.sh(removeScript(names))));
      return;
    }
    const ports = await this.db
      .select()
      .from(lvPorts)
      .where(and(eq(lvPorts.networkId, network.id), eq(lvPorts.deleted, false)));
    const hosts = this.hostsOf(region);
    const tunnelIps = region.hosts.map((h) => h.tunnelIp);
    await Promise.all(
      hosts.map((host, i) =>
        host.sh(
          applyScript({
            names,
            spec: network.spec,
            ports: ports.filter((p) => !p.fault),
            uplink: region.uplink,
            routed: i === 0,
            tunnel:
              hosts.length > 1
                ? {
                    local: tunnelIps[i]!,
                    remotes: tunnelIps.filter((_, j) => j !== i) as string[],
                  }
                : undefined,
          }),
        ),
      ),
    );
  }

  async applyById(networkId: number) {
    await this.apply(await this.networkById(networkId));
  }

  async createNetwork(regionKey: string, spec: NetworkSpec, clientToken: string) {
    this.region(regionKey);
    if (!parseCidr(spec.cidr)) throw new ProviderRejection(`Bad CIDR ${spec.cidr}`);
    const [created] = await this.db
      .insert(lvNetworks)
      .values({ ref: newRef('net'), clientToken, regionKey, spec })
      .onConflictDoNothing({ target: lvNetworks.clientToken })
      .returning();
    const row =
      created ??
      (await this.db.select().from(lvNetworks).where(eq(lvNetworks.clientToken, clientToken)))[0]!;
    await this.apply(row);
    return { ref: row.ref };
  }

  async updateNetwork(ref: string, spec: NetworkSpec, clientToken: string) {
    const network = await this.network(ref);
    await this.db.transaction(async (tx) => {
      if (!(await this.requests.first(tx, clientToken, 'network-update', ref))) return;
      await tx
        .update(lvNetworks)
        .set({ spec, updatedAt: new Date() })
        .where(eq(lvNetworks.id, network.id));
    });
    await this.applyById(network.id);
  }

  async deleteNetwork(ref: string, clientToken: string) {
    const [row] = await this.db.select().from(lvNetworks).where(eq(lvNetworks.ref, ref));
    if (!row) throw new ProviderRejection('No such network');
    if (!row.deleted) {
      const [port] = await this.db
        .select({ id: lvPorts.id })
        .from(lvPorts)
        .where(and(eq(lvPorts.networkId, row.id), eq(lvPorts.deleted, false)))
        .limit(1);
      if (port) throw new ProviderRejection('The network still has ports');
      await this.db.transaction(async (tx) => {
        await this.requests.first(tx, clientToken, 'network-delete', ref);
        await tx
          .update(lvNetworks)
          .set({ deleted: true, updatedAt: new Date() })
          .where(eq(lvNetworks.id, row.id));
      });
    }
    // Removing again is harmless, and finishes a removal a restart interrupted.
    await this.apply({ ...row, deleted: true });
  }

  async getNetwork(ref: string): Promise<NetworkState | null> {
    const [row] = await this.db.select().from(lvNetworks).where(eq(lvNetworks.ref, ref));
    if (!row || row.deleted) return null;
    const region = this.region(row.regionKey);
    const [first] = this.hostsOf(region);
    // A host that lost the network (rebooted) gets it back.
    if (first && !(await bridgeExists(first, this.names(row.id)))) await this.apply(row);
    return { ref: row.ref, status: 'active', fault: row.fault };
  }

  /** Checks a port for a server in `regionKey`; answers its network's record. */
  async checkPort(regionKey: string, port: PortRequest): Promise<LvNetwork> {
    const network = await this.network(port.networkRef);
    if (network.regionKey !== regionKey)
      throw new ProviderRejection('The network is in another region');
    const cidr = parseCidr(network.spec.cidr)!;
    if (port.fixedIp && !cidr.isHost(port.fixedIp)) {
      throw new ProviderRejection(`${port.fixedIp} is not an address of ${network.spec.cidr}`);
    }
    const [sameMac] = await this.db
      .select({ id: lvPorts.id })
      .from(lvPorts)
      .where(
        and(
          eq(lvPorts.deleted, false),
          sql`lower(${lvPorts.macAddress}) = lower(${port.macAddress})`,
        ),
      );
    if (sameMac) throw new ProviderRejection(`${port.macAddress} is in use`);
    if (port.fixedIp) {
      const [sameIp] = await this.db
        .select({ id: lvPorts.id })
        .from(lvPorts)
        .where(
          and(
            eq(lvPorts.deleted, false),
            eq(lvPorts.networkId, network.id),
            eq(lvPorts.fixedIp, port.fixedIp),
          ),
        );
      if (sameIp) throw new ProviderRejection(`${port.fixedIp} is in use on the network`);
    }
    return network;
  }

  async ports(serverRef: string): Promise<LvPort[]> {
    return this.db
      .select()
      .from(lvPorts)
      .where(and(eq(lvPorts.serverRef, serverRef), eq(lvPorts.deleted, false)));
  }

  async port(ref: string): Promise<LvPort | undefined> {
    const [row] = await this.db.select().from(lvPorts).where(eq(lvPorts.ref, ref));
    return row;
  }

  /** Whether the MAC holds a lease on its network (the guest has asked for its address). */
  async hasLease(port: LvPort): Promise<boolean> {
    const network = await this.networkById(port.networkId);
    const [networkHost] = this.hostsOf(this.region(network.regionKey));
    const leases = await leasedMacs(networkHost!, this.names(port.networkId));
    return leases.has(port.macAddress.toLowerCase());
  }

  async getPort(ref: string): Promise<PortState | null> {
    const row = await this.port(ref);
    if (!row || (row.deleted && !row.fault)) return null;
    return {
      ref: row.ref,
      serverRef: row.serverRef,
      status: row.fault ? 'error' : 'active',
      busy: false,
      publicIp: row.publicIp,
      fault: row.fault,
    };
  }

  attachPort(serverRef: string, port: PortRequest, clientToken: string) {
    return this.plugging.attach(serverRef, port, clientToken);
  }

  detachPort(ref: string, clientToken: string) {
    return this.plugging.detach(ref, clientToken);
  }

  allocatePublicIp(portRef: string, address: string, clientToken: string) {
    return this.changePublicIp(portRef, address, clientToken);
  }

  releasePublicIp(portRef: string, clientToken: string) {
    return this.changePublicIp(portRef, null, clientToken);
  }

  /** A port's public address: the NAT rules and the uplink address follow the record. */
  private async changePublicIp(portRef: string, address: string | null, clientToken: string) {
    const port = await this.port(portRef);
    if (!port || port.deleted) throw new ProviderRejection('No such port');
    const network = await this.networkById(port.networkId);
    const changed = await this.db.transaction(async (tx) => {
      if (!(await this.requests.first(tx, clientToken, 'ip', portRef))) return false;
      if (address) {
        if (!network.spec.snatIp)
          throw new ProviderRejection('Public addresses need a network with SNAT');
        if (port.publicIp) throw new ProviderRejection('The port has a public address already');
        const [taken] = await tx
          .select({ id: lvPorts.id })
          .from(lvPorts)
          .where(and(eq(lvPorts.publicIp, address), eq(lvPorts.deleted, false)));
        if (taken) throw new ProviderRejection(`${address} is in use`);
      } else if (!port.publicIp) {
        throw new ProviderRejection('The port has no public address');
      }
      await tx
        .update(lvPorts)
        .set({ publicIp: address, updatedAt: new Date() })
        .where(eq(lvPorts.id, port.id));
      return true;
    });
    // Applied even for a repeated token: the first call may have died before it reached the host.
    if (changed || port.publicIp === address) await this.apply(network);
  }
}
