import { and, eq, isNull } from 'drizzle-orm';
import { defaultAddressing, overlaps, parseCidr } from '../../../src/api/contract/ip';
import {
  DEFAULT_DNS_SERVERS,
  networkMessages,
  type NetworkType,
} from '../../../src/api/contract/networks';
import type { CompanyLimits } from '../../config';
import { conflict } from '../../http-error';
import type { Db, Tx } from '../../db/client';
import { networks } from '../../db/network-schema';
import { companies } from '../../db/schema';
import { networkCreateFailed } from '../../jobs/network-steps';
import { enqueueOperation } from '../../jobs/operations';
import type { Actor } from '../events/actor';
import { requireRoom } from '../limits/room';
import { reservePublicIp, type NetworkRecord } from './addresses';

/** A network's addressing as stored: what the type leaves on and what it clears. */
export interface NetworkAddressing {
  networkType: NetworkType;
  cidrBlock: string;
  dhcpStartAddress: string | null;
  dhcpEndAddress: string | null;
  defaultRoute: string | null;
  dnsServers: string[];
}

/**
 * Standard: DHCP, default route and DNS on, SNAT always on, the gateway at the default route.
 * Custom: layer 2 only, with no DHCP, SNAT, route or DNS.
 */
export function storedAddressing(input: NetworkAddressing) {
  const standard = input.networkType === 'standard';
  return {
    networkType: input.networkType,
    cidrBlock: parseCidr(input.cidrBlock)!.text,
    gatewayIp: standard ? input.defaultRoute : null,
    snatEnabled: standard,
    dhcpServerEnabled: standard,
    dhcpStartAddress: standard ? input.dhcpStartAddress : null,
    dhcpEndAddress: standard ? input.dhcpEndAddress : null,
    defaultRouteEnabled: standard,
    defaultRoute: standard ? input.defaultRoute : null,
    serveDnsServersEnabled: standard,
    dnsServers: standard ? input.dnsServers : [],
  };
}

export const networkSubject = (network: Pick<NetworkRecord, 'id' | 'name'>) => ({
  type: 'network' as const,
  id: network.id,
  name: network.name,
});

/** Writes a network, takes its SNAT address from the region's pool, and orders it at the provider. */
export async function insertNetwork(
  tx: Tx,
  input: {
    companyId: number;
    regionId: number;
    name: string;
    description: string;
    isDefault?: boolean;
    actor: Actor;
    now: Date;
    limits: CompanyLimits;
  } & NetworkAddressing,
): Promise<NetworkRecord> {
  // The company's row (and its reseller's) serialises its network writes, so that the limits hold
  // under concurrency.
  await requireRoom(
    tx,
    { companyId: input.companyId, regionId: input.regionId, quotas: input.limits },
    { networks: 1 },
  );
  const [network] = await tx
    .insert(networks)
    .values({
      companyId: input.companyId,
      regionId: input.regionId,
      name: input.name,
      description: input.description,
      isDefault: input.isDefault ?? false,
      ...storedAddressing(input),
      createdAt: input.now,
      updatedAt: input.now,
    })
    .returning();
  if (network!.snatEnabled) {
    await reservePublicIp(
      tx,
      { regionId: input.regionId, companyId: input.companyId, limits: input.limits },
      { networkId: network!.id },
      'Active',
      input.now,
    );
  }
  await enqueueOperation(tx, {
    companyId: input.companyId,
    networkId: network!.id,
    kind: 'network.create',
    activity: {
      actor: input.actor,
      action: 'network.create',
      subject: networkSubject(network!),
      networkId: network!.id,
      detail: { cidrBlock: network!.cidrBlock },
    },
    now: input.now,
  });
  return network!;
}

/** The company's live networks in a region. */
export const regionNetworks = (tx: Db | Tx, companyId: number, regionId: number) =>
  tx
    .select()
    .from(networks)
    .where(
      and(
        eq(networks.companyId, companyId),
        eq(networks.regionId, regionId),
        isNull(networks.deletedAt),
      ),
    );

const DEFAULT_PREFIX = 22;

/**
 * The network a region's VMs start on, made with the company's first VM there: a standard /22 in
 * 10.0.0.0/8 that overlaps none of the company's networks in the region. Locked for the caller.
 */
export async function ensureDefaultNetwork(
  tx: Tx,
  input: { companyId: number; regionId: number; actor: Actor; now: Date; limits: CompanyLimits },
): Promise<NetworkRecord> {
  const existing = async () => {
    const [row] = await tx
      .select()
      .from(networks)
      .where(
        and(
          eq(networks.companyId, input.companyId),
          eq(networks.regionId, input.regionId),
          eq(networks.isDefault, true),
          isNull(networks.deletedAt),
        ),
      )
      .for('update');
    return row;
  };
  const found = await existing();
  if (found) {
    // Its build failed (an unreachable engine): order it again rather than fail every VM on it.
    if (!found.providerRef && (await networkCreateFailed(tx, found.id))) {
      await enqueueOperation(tx, {
        companyId: input.companyId,
        networkId: found.id,
        kind: 'network.create',
        activity: {
          actor: input.actor,
          action: 'network.create',
          subject: networkSubject(found),
          networkId: found.id,
          detail: { cidrBlock: found.cidrBlock, retry: true },
        },
        now: input.now,
      });
    }
    return found;
  }
  // Two first VMs at once: the company's row lets one of them make the network, then the other
  // finds it. (NO KEY UPDATE leaves the company's other writes alone.)
  await tx
    .select({ id: companies.id })
    .from(companies)
    .where(eq(companies.id, input.companyId))
    .for('no key update');
  const madeMeanwhile = await existing();
  if (madeMeanwhile) return madeMeanwhile;

  const taken = (await regionNetworks(tx, input.companyId, input.regionId)).map((n) =>
    parseCidr(n.cidrBlock)!,
  );
  const blocks = 2 ** (DEFAULT_PREFIX - 8);
  let cidr = null;
  for (let i = 0; i < blocks && !cidr; i += 1) {
    const candidate = parseCidr(`10.${Math.floor(i / 64)}.${(i % 64) * 4}.0/${DEFAULT_PREFIX}`)!;
    if (!taken.some((t) => overlaps(t, candidate))) cidr = candidate;
  }
  if (!cidr) throw conflict(networkMessages.noDefaultBlock);
  const addressing = defaultAddressing(cidr);
  return insertNetwork(tx, {
    companyId: input.companyId,
    regionId: input.regionId,
    name: 'Default network',
    description: 'Made with the first virtual machine of the region; every VM starts on it.',
    isDefault: true,
    networkType: 'standard',
    cidrBlock: cidr.text,
    dhcpStartAddress: addressing.dhcpStartAddress,
    dhcpEndAddress: addressing.dhcpEndAddress,
    defaultRoute: addressing.gatewayIp,
    dnsServers: DEFAULT_DNS_SERVERS.split(',').map((s) => s.trim()),
    actor: input.actor,
    now: input.now,
    limits: input.limits,
  });
}
