import { and, asc, count, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import {
  defaultAddressing,
  overlaps,
  parseCidr,
  reservedRangeWarning,
} from '../../../src/api/contract/ip';
import {
  networkMessages,
  type CidrDetails,
  type ConnectedVm,
  type createNetworkBody,
  type ListNetworksQuery,
  type NetworkDetails,
  type NetworkPage,
  type NetworkSortColumn,
  type updateNetworkBody,
} from '../../../src/api/contract/networks';
import type { z } from 'zod';
import { regions } from '../../db/catalog-schema';
import type { Db, Tx } from '../../db/client';
import { networks, publicIps, vmInterfaces } from '../../db/network-schema';
import { virtualMachines } from '../../db/vm-schema';
import { badRequest, conflict, forbidden, notFound } from '../../http-error';
import { enqueueOperation } from '../../jobs/operations';
import type { Caller } from '../access';
import { escapeLike, pageCount } from '../list-paging';
import { lockNetwork } from './addresses';
import { insertNetwork, regionNetworks, storedAddressing } from './network-records';

/**
 * Networks are company-wide: everyone in the company sees them; Admins create, edit and delete
 * them. Every query is scoped by the caller's company: another company's network answers 404.
 */

const liveVm = isNull(virtualMachines.deletedAt);

/** The VMs (not deleted) with an interface on the network. */
const connectedVmCount = (db: Db) =>
  sql<number>`(${db
    .select({ n: count() })
    .from(vmInterfaces)
    .innerJoin(virtualMachines, and(eq(virtualMachines.id, vmInterfaces.vmId), liveVm))
    .where(eq(vmInterfaces.networkId, networks.id))})`.mapWith(Number);

const sortKeys = (db: Db): Record<NetworkSortColumn, SQL> => ({
  name: sql`lower(${networks.name})`,
  // Numeric address order, not text order.
  cidrBlock: sql`${networks.cidrBlock}::cidr`,
  region: sql`lower(${regions.city})`,
  connectedVms: connectedVmCount(db),
});

export async function listNetworks(
  db: Db,
  caller: Caller,
  query: ListNetworksQuery,
): Promise<NetworkPage> {
  const where = and(
    eq(networks.companyId, caller.companyId),
    isNull(networks.deletedAt),
    query.regionId === undefined ? undefined : eq(networks.regionId, query.regionId),
    query.search
      ? sql`lower(${networks.name}) like ${`%${escapeLike(query.search.toLowerCase())}%`}`
      : undefined,
  );
  const direction = query.sortDescending ? desc : asc;
  const [[total], rows] = await Promise.all([
    db.select({ n: count() }).from(networks).where(where),
    db
      .select({
        id: networks.id,
        name: networks.name,
        cidrBlock: networks.cidrBlock,
        region: regions.city,
        connectedVms: connectedVmCount(db),
      })
      .from(networks)
      .innerJoin(regions, eq(regions.id, networks.regionId))
      .where(where)
      .orderBy(direction(sortKeys(db)[query.sortColumn]), direction(networks.id))
      .limit(query.rowsPerPage)
      .offset((query.page - 1) * query.rowsPerPage),
  ]);
  return { data: rows, totalPages: pageCount(total?.n ?? 0, query.rowsPerPage) };
}

async function findNetwork(db: Db, caller: Caller, networkId: number) {
  const [row] = await db
    .select({ network: networks, region: regions.city, snat: publicIps.address })
    .from(networks)
    .innerJoin(regions, eq(regions.id, networks.regionId))
    .leftJoin(publicIps, eq(publicIps.networkId, networks.id))
    .where(
      and(
        eq(networks.id, networkId),
        eq(networks.companyId, caller.companyId),
        isNull(networks.deletedAt),
      ),
    );
  if (!row) throw notFound(networkMessages.notFound);
  return row;
}

const poolSize = (start: string | null, end: string | null) => {
  const cidr = start && parseCidr(`${start}/32`);
  return cidr && end ? cidr.toNumber(end) - cidr.toNumber(start) + 1 : 0;
};

export async function getNetworkDetails(
  db: Db,
  caller: Caller,
  networkId: number,
): Promise<NetworkDetails> {
  const { network, region, snat } = await findNetwork(db, caller, networkId);
  const [vms] = await db
    .select({ n: count() })
    .from(vmInterfaces)
    .innerJoin(virtualMachines, and(eq(virtualMachines.id, vmInterfaces.vmId), liveVm))
    .where(eq(vmInterfaces.networkId, network.id));
  const connected = vms?.n ?? 0;
  const pools =
    network.dhcpServerEnabled && network.dhcpStartAddress && network.dhcpEndAddress
      ? [{ start: network.dhcpStartAddress, end: network.dhcpEndAddress }]
      : [];
  return {
    id: network.id,
    name: network.name,
    regionId: network.regionId,
    region,
    description: network.description,
    cidrBlock: network.cidrBlock,
    snat: network.snatEnabled ? snat : null,
    snatEnabled: network.snatEnabled,
    gatewayIp: network.gatewayIp,
    dnsNameservers: network.serveDnsServersEnabled ? network.dnsServers : [],
    createdAt: network.createdAt,
    updatedAt: network.updatedAt,
    networkType: network.networkType,
    allocationPools: pools,
    usedIPAddresses: connected,
    totalIPAddresses: pools.reduce((sum, p) => sum + poolSize(p.start, p.end), 0),
    dhcpServerEnabled: network.dhcpServerEnabled,
    dhcpStartAddress: network.dhcpStartAddress,
    dhcpEndAddress: network.dhcpEndAddress,
    defaultRouteEnabled: network.defaultRouteEnabled,
    defaultRoute: network.defaultRoute,
    serveDNSServersEnabled: network.serveDnsServersEnabled,
    connectedVms: connected,
  };
}

/** The VMs on the network that the caller may see (all for Admins, their teams' for others). */
export async function listNetworkVms(
  db: Db,
  caller: Caller,
  networkId: number,
  visibleTeams: number[] | 'all',
): Promise<ConnectedVm[]> {
  await findNetwork(db, caller, networkId);
  const rows = await db
    .select({
      id: virtualMachines.id,
      name: virtualMachines.name,
      privateIp: vmInterfaces.privateIp,
      teamId: virtualMachines.teamId,
    })
    .from(vmInterfaces)
    .innerJoin(virtualMachines, and(eq(virtualMachines.id, vmInterfaces.vmId), liveVm))
    .where(eq(vmInterfaces.networkId, networkId))
    .orderBy(asc(sql`lower(${virtualMachines.name})`), asc(virtualMachines.id));
  return rows
    .filter((r) => visibleTeams === 'all' || (r.teamId !== null && visibleTeams.includes(r.teamId)))
    .map(({ id, name, privateIp }) => ({ id, name, privateIp }));
}

/**
 * The addressing a block suggests (the gateway first, DHCP on every other host) and what to beware
 * of: host bits, reserved or public ranges, and overlaps with the company's networks in the region.
 */
export async function cidrDetails(
  db: Db,
  caller: Caller,
  query: { cidr: string; regionId?: number | undefined; networkId?: number | undefined },
): Promise<CidrDetails> {
  const cidr = parseCidr(query.cidr);
  if (!cidr) throw badRequest(networkMessages.cidrInvalid, 'cidr');
  const warnings: string[] = [];
  if (cidr.hostBitsSet)
    warnings.push(`${query.cidr.replace(/\s+/g, '')} has host bits set; the block is ${cidr.text}`);
  const reserved = reservedRangeWarning(cidr);
  if (reserved) warnings.push(reserved);
  if (query.regionId !== undefined) {
    const others = (await regionNetworks(db, caller.companyId, query.regionId))
      .filter((n) => n.id !== query.networkId)
      .filter((n) => overlaps(parseCidr(n.cidrBlock)!, cidr));
    if (others.length > 0) {
      warnings.push(
        `${cidr.text} overlaps ${others.map((n) => `${n.name} (${n.cidrBlock})`).join(', ')}`,
      );
    }
  }
  return {
    cidr: cidr.text,
    ...defaultAddressing(cidr),
    warning: warnings.length > 0 ? warnings.join('. ') : null,
  };
}

type NetworkInput = z.output<typeof updateNetworkBody>;

const addressingOf = (input: NetworkInput) => ({
  networkType: input.networkType,
  cidrBlock: input.cidrBlock,
  dhcpStartAddress: input.dhcpStartAddress,
  dhcpEndAddress: input.dhcpEndAddress,
  defaultRoute: input.defaultRoute,
  dnsServers: input.dnsServers ? input.dnsServers.split(',').map((s) => s.trim()) : [],
});

const requireAdmin = (caller: Caller) => {
  if (!caller.isAdmin) throw forbidden(networkMessages.adminsOnly);
};

export async function createNetwork(
  db: Db,
  caller: Caller,
  input: z.output<typeof createNetworkBody>,
  now: Date,
): Promise<number> {
  requireAdmin(caller);
  const [region] = await db
    .select({ id: regions.id })
    .from(regions)
    .where(eq(regions.id, input.regionId));
  if (!region) throw badRequest(networkMessages.regionRequired, 'regionId');
  return db.transaction(async (tx) => {
    const network = await insertNetwork(tx, {
      companyId: caller.companyId,
      regionId: input.regionId,
      name: input.name,
      description: input.description,
      ...addressingOf(input),
      now,
    });
    return network.id;
  });
}

/** The network, locked; 404 when it is not the caller's, 409 while VMs are connected. */
async function lockEditableNetwork(tx: Tx, caller: Caller, networkId: number) {
  const network = await lockNetwork(tx, networkId);
  if (!network || network.companyId !== caller.companyId || network.deletedAt) {
    throw notFound(networkMessages.notFound);
  }
  requireAdmin(caller);
  const [attached] = await tx
    .select({ id: vmInterfaces.id })
    .from(vmInterfaces)
    .innerJoin(virtualMachines, eq(virtualMachines.id, vmInterfaces.vmId))
    .where(eq(vmInterfaces.networkId, networkId))
    .limit(1);
  if (attached) throw conflict(networkMessages.hasVms);
  return network;
}

export async function updateNetwork(
  db: Db,
  caller: Caller,
  networkId: number,
  input: NetworkInput,
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    const network = await lockEditableNetwork(tx, caller, networkId);
    if (input.networkType !== network.networkType) {
      throw badRequest(networkMessages.typeFixed, 'networkType');
    }
    await tx
      .update(networks)
      .set({
        name: input.name,
        description: input.description,
        ...storedAddressing(addressingOf(input)),
        updatedAt: now,
      })
      .where(eq(networks.id, networkId));
    await enqueueOperation(tx, {
      companyId: caller.companyId,
      networkId,
      kind: 'network.update',
      now,
    });
  });
}

/** The network leaves the list at once; its operation removes it from the provider. */
export async function deleteNetwork(db: Db, caller: Caller, networkId: number, now: Date) {
  await db.transaction(async (tx) => {
    await lockEditableNetwork(tx, caller, networkId);
    await tx
      .update(networks)
      .set({ deletedAt: now, updatedAt: now })
      .where(eq(networks.id, networkId));
    await enqueueOperation(tx, {
      companyId: caller.companyId,
      networkId,
      kind: 'network.delete',
      now,
    });
  });
}
