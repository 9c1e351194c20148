import { and, count, eq, inArray, isNull, max, sql, type Column, type SQL } from 'drizzle-orm';
import type { LimitResource } from '../../../src/api/contract/limits';
import { configurations } from '../../db/catalog-schema';
import type { Db, Tx } from '../../db/client';
import { networks, publicIps } from '../../db/network-schema';
import { vmSnapshots } from '../../db/self-service-schema';
import { companies } from '../../db/schema';
import { virtualMachines as vm } from '../../db/vm-schema';
import { operations } from '../../jobs/schema';

/**
 * What counts against a limit, the operator's quotas included: live VMs and their sizes (a VM
 * being resized at the larger of its two sizes until the resize ends, so that two upgrades at once
 * cannot both take the last cores and a failed one gives them back), live networks, and the public
 * addresses held (an interface's NAT or a network's SNAT, being allocated or released included:
 * the region's pool is short of them), and the snapshots of live VMs (in their VM's region; a
 * failed one too, until it is deleted).
 */

/** Whose holdings: one company's, or those of all a reseller's customers together. */
export type Holder = { companyId: number } | { resellerId: number };

export type Amounts = Record<LimitResource, number>;

const none = (): Amounts => ({
  vms: 0,
  vcpus: 0,
  ramGb: 0,
  publicIps: 0,
  networks: 0,
  snapshots: 0,
});

/** A holder's amounts by region. */
export class Holdings {
  constructor(private readonly byRegion: ReadonlyMap<number, Amounts>) {}

  /** In one region, or in all of them together (null). */
  in(resource: LimitResource, regionId: number | null): number {
    if (regionId !== null) return this.byRegion.get(regionId)?.[resource] ?? 0;
    let total = 0;
    for (const amounts of this.byRegion.values()) total += amounts[resource];
    return total;
  }
}

const asInt = (value: SQL) => sql<number>`${value}`.mapWith(Number);

/** The holder's rows of a table by its company column: a reseller's customers, not its staff. */
function heldBy(db: Db | Tx, column: Column, holder: Holder): SQL {
  if ('companyId' in holder) return eq(column, holder.companyId);
  return inArray(
    column,
    db
      .select({ id: companies.id })
      .from(companies)
      .where(
        and(eq(companies.resellerId, holder.resellerId), eq(companies.isResellerStaff, false)),
      ),
  );
}

async function vmAmounts(db: Db | Tx, holder: Holder) {
  const resizing = db
    .select({
      vmId: operations.vmId,
      cpu: max(configurations.cpu).as('resizing_cpu'),
      ram: max(configurations.ram).as('resizing_ram'),
    })
    .from(operations)
    .innerJoin(
      configurations,
      eq(configurations.id, sql`(${operations.payload}->>'configurationId')::int`),
    )
    .where(
      and(
        heldBy(db, operations.companyId, holder),
        eq(operations.kind, 'vm.resize'),
        inArray(operations.status, ['pending', 'running']),
      ),
    )
    .groupBy(operations.vmId)
    .as('resizing');
  // greatest() passes over the null of a VM that is not being resized.
  return db
    .select({
      regionId: vm.regionId,
      vms: count(),
      vcpus: asInt(sql`coalesce(sum(greatest(${configurations.cpu}, ${resizing.cpu})), 0)`),
      ramGb: asInt(sql`coalesce(sum(greatest(${configurations.ram}, ${resizing.ram})), 0)`),
    })
    .from(vm)
    .innerJoin(configurations, eq(configurations.id, vm.configurationId))
    .leftJoin(resizing, eq(resizing.vmId, vm.id))
    .where(and(heldBy(db, vm.companyId, holder), isNull(vm.deletedAt)))
    .groupBy(vm.regionId);
}

const networkAmounts = (db: Db | Tx, holder: Holder) =>
  db
    .select({ regionId: networks.regionId, networks: count() })
    .from(networks)
    .where(and(heldBy(db, networks.companyId, holder), isNull(networks.deletedAt)))
    .groupBy(networks.regionId);

const publicIpAmounts = (db: Db | Tx, holder: Holder) =>
  db
    .select({ regionId: publicIps.regionId, publicIps: count() })
    .from(publicIps)
    .where(heldBy(db, publicIps.companyId, holder))
    .groupBy(publicIps.regionId);

const snapshotAmounts = (db: Db | Tx, holder: Holder) =>
  db
    .select({ regionId: vm.regionId, snapshots: count() })
    .from(vmSnapshots)
    .innerJoin(vm, eq(vm.id, vmSnapshots.vmId))
    .where(
      and(
        heldBy(db, vmSnapshots.companyId, holder),
        isNull(vmSnapshots.deletedAt),
        isNull(vm.deletedAt),
      ),
    )
    .groupBy(vm.regionId);

/**
 * What the holder holds of these resources (the others read as 0), in every region. Read in the
 * caller's transaction: under the locks that keep it true until the change is written.
 */
export async function readHoldings(
  db: Db | Tx,
  holder: Holder,
  resources: Iterable<LimitResource>,
): Promise<Holdings> {
  const wanted = new Set(resources);
  const wants = (...some: LimitResource[]) => some.some((resource) => wanted.has(resource));
  const byRegion = new Map<number, Amounts>();
  const add = (rows: ({ regionId: number } & Partial<Amounts>)[]) => {
    for (const { regionId, ...amounts } of rows) {
      byRegion.set(regionId, Object.assign(byRegion.get(regionId) ?? none(), amounts));
    }
  };
  // One after the other: a transaction's connection runs one query at a time anyway.
  if (wants('vms', 'vcpus', 'ramGb')) add(await vmAmounts(db, holder));
  if (wants('networks')) add(await networkAmounts(db, holder));
  if (wants('publicIps')) add(await publicIpAmounts(db, holder));
  if (wants('snapshots')) add(await snapshotAmounts(db, holder));
  return new Holdings(byRegion);
}
