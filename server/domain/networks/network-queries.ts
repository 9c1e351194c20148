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
  type ListNetworksQuery,
  type NetworkDetails,
  type NetworkPage,
  type NetworkSortColumn,
} from '../../../src/api/contract/networks';
import { regions } from '../../db/catalog-schema';
import type { Db } from '../../db/client';
import { networks, publicIps, vmInterfaces } from '../../db/network-schema';
import { virtualMachines } from '../../db/vm-schema';
import { badRequest, notFound } from '../../http-error';
import type { Caller } from '../tenancy/access';
import {
  boundedCount,
  escapeLike,
  keptCount,
  naturalKey,
  pageWithTotal,
} from '../lists/list-paging';
import { regionNetworks } from './network-records';

/**
 * What the company's networks look like. Networks are company-wide: everyone in the company sees
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
  name: sql`${networks.nameKey}`,
  // Numeric address order, not text order.
  cidrBlock: sql`${networks.cidrBlock}::cidr`,
  region: naturalKey(regions.city),
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
  const total =
    query.regionId === undefined && !query.search
      ? keptCount(db, 'networks', caller.companyId)
      : boundedCount(
          db.select({ id: networks.id }).from(networks).where(where),
          (query.page - 1) * query.rowsPerPage,
        );
  const rows = await db
    .select({
      total,
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
    .offset((query.page - 1) * query.rowsPerPage);
  return pageWithTotal(db, rows, total, query.rowsPerPage);
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
    .orderBy(asc(virtualMachines.nameKey), asc(virtualMachines.id));
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
