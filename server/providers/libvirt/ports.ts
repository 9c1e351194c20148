import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { ProviderRejection, type PortRequest } from '../driver';
import { newRef, type RequestLedger } from '../request-ledger';
import type { LibvirtConfig } from './config';
import { domainInterfaces, interfaceXml } from './domain-xml';
import { filterFor, type GuestFilterDefinitions } from './guest-filters';
import type { LibvirtHost } from './host';
import { tapName, type NetworkNames } from './host-network';
import { lvPorts, type lvNetworks, type lvServers } from './schema';

type LvNetwork = typeof lvNetworks.$inferSelect;
type LvPort = typeof lvPorts.$inferSelect;
type LvServer = typeof lvServers.$inferSelect;

/**
 * What plugging ports needs of the networking (LibvirtNetworking, which makes the plugging and
 * would close an import cycle if named here): its records, and rewriting a network on its hosts.
 */
export interface PortNetworking {
  names(networkId: number): NetworkNames;
  checkPort(regionKey: string, port: PortRequest): Promise<LvNetwork>;
  port(ref: string): Promise<LvPort | undefined>;
  apply(network: LvNetwork): Promise<void>;
  applyById(networkId: number): Promise<void>;
}

/** What plugging ports needs of the driver. */
export interface PortContext {
  db: Db;
  config: LibvirtConfig;
  networking: PortNetworking;
  requests: RequestLedger;
  filters: GuestFilterDefinitions;
  now(): Date;
  host(key: string): LibvirtHost;
  /** The server at rest and shut off, or a refusal. */
  shutOffServer(ref: string): Promise<LvServer>;
}

/**
 * A server's further ports: plugged into and out of its domain's definition while it is shut
 * off (`virsh attach-device --config`), its network's reservations and NAT following.
 */
export class PortPlugging {
  constructor(private readonly ctx: PortContext) {}

  private interfaceXml(
    port: { networkId: number; macAddress: string; fixedIp: string | null },
    portId: number,
  ) {
    const prefix = this.ctx.config.namePrefix;
    return interfaceXml({
      bridge: this.ctx.networking.names(port.networkId).bridge,
      macAddress: port.macAddress,
      tap: tapName(prefix, portId),
      filter: { name: filterFor(prefix, port.fixedIp), fixedIp: port.fixedIp },
    });
  }

  /** The domain's next boot has the interface. */
  async attach(serverRef: string, port: PortRequest, clientToken: string) {
    const { db, networking } = this.ctx;
    const [known] = await db
      .select({ ref: lvPorts.ref })
      .from(lvPorts)
      .where(eq(lvPorts.clientToken, clientToken));
    if (known) return known;
    const row = await this.ctx.shutOffServer(serverRef);
    const network = await networking.checkPort(row.regionKey, port);
    const [created] = await db
      .insert(lvPorts)
      .values({
        ref: newRef('port'),
        clientToken,
        serverRef,
        networkId: network.id,
        networkRef: network.ref,
        fixedIp: port.fixedIp,
        macAddress: port.macAddress,
      })
      .returning();
    try {
      await networking.apply(network);
      const host = this.ctx.host(row.hostKey);
      await this.ctx.filters.ensure(host);
      await host.virsh(['attach-device', row.domain, 'FILE', '--config'], {
        file: this.interfaceXml({ ...port, networkId: network.id }, created!.id),
      });
    } catch (error) {
      // Refused: the port is gone, and says why (getPort answers it in error).
      if (error instanceof ProviderRejection) {
        await db
          .update(lvPorts)
          .set({ fault: error.message, deleted: true })
          .where(eq(lvPorts.id, created!.id));
        await networking.apply(network);
      }
      throw error;
    }
    return { ref: created!.ref };
  }

  async detach(ref: string, clientToken: string) {
    const { db, networking } = this.ctx;
    const port = await networking.port(ref);
    if (!port || port.deleted) return;
    const row = await this.ctx.shutOffServer(port.serverRef);
    const host = this.ctx.host(row.hostKey);
    const plugged = domainInterfaces(await host.virsh(['dumpxml', row.domain, '--inactive']));
    if (plugged.some((i) => i.macAddress.toLowerCase() === port.macAddress.toLowerCase())) {
      await host.virsh(['detach-device', row.domain, 'FILE', '--config'], {
        file: this.interfaceXml(port, port.id),
      });
    }
    await db.transaction(async (tx) => {
      await this.ctx.requests.first(tx, clientToken, 'port-detach', ref);
      await tx
        .update(lvPorts)
        .set({ deleted: true, publicIp: null, updatedAt: this.ctx.now() })
        .where(eq(lvPorts.id, port.id));
    });
    await networking.applyById(port.networkId);
  }
}
