import { and, count, eq, inArray, isNull, max, sql } from 'drizzle-orm';
import { vmMessages } from '../../../src/api/contract/vms';
import type { CompanyLimits } from '../../config';
import { configurations } from '../../db/catalog-schema';
import type { Tx } from '../../db/client';
import { companies } from '../../db/schema';
import { virtualMachines } from '../../db/vm-schema';
import { conflict } from '../../http-error';
import { operations } from '../../jobs/schema';

/** VMs, cores and GB of RAM: what a company holds in a region, or what a change adds to it. */
export interface VmShare {
  vms: number;
  cpu: number;
  ram: number;
}

/**
 * The company's live VMs in the region and their sizes. A VM being resized counts at the larger of
 * its two sizes until the resize ends: two upgrades at once cannot both take the last cores, and a
 * failed one gives them back.
 */
async function heldInRegion(tx: Tx, companyId: number, regionId: number): Promise<VmShare> {
  const resizing = tx
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
        eq(operations.companyId, companyId),
        eq(operations.kind, 'vm.resize'),
        inArray(operations.status, ['pending', 'running']),
      ),
    )
    .groupBy(operations.vmId)
    .as('resizing');
  const [held] = await tx
    .select({
      vms: count(),
      cpu: sql<number>`coalesce(sum(greatest(${configurations.cpu}, ${resizing.cpu})), 0)::int`,
      ram: sql<number>`coalesce(sum(greatest(${configurations.ram}, ${resizing.ram})), 0)::int`,
    })
    .from(virtualMachines)
    .innerJoin(configurations, eq(configurations.id, virtualMachines.configurationId))
    .leftJoin(resizing, eq(resizing.vmId, virtualMachines.id))
    .where(
      and(
        eq(virtualMachines.companyId, companyId),
        eq(virtualMachines.regionId, regionId),
        isNull(virtualMachines.deletedAt),
      ),
    );
  return held ?? { vms: 0, cpu: 0, ram: 0 };
}

/**
 * 409 naming the first of the company's limits in the region that the change would cross. Only
 * what the change adds is checked, so a company above a lowered limit can still do what does not
 * grow it. The company's row serialises the count with every other create and upgrade of the
 * company (as it does for networks), so two requests at once cannot both take the last place.
 */
export async function requireVmRoom(
  tx: Tx,
  owner: { companyId: number; regionId: number; limits: CompanyLimits },
  adding: VmShare,
): Promise<void> {
  await tx
    .select({ id: companies.id })
    .from(companies)
    .where(eq(companies.id, owner.companyId))
    .for('no key update');
  const held = await heldInRegion(tx, owner.companyId, owner.regionId);
  const { vmsPerRegion, vcpusPerRegion, ramGbPerRegion } = owner.limits;
  const crosses = (key: keyof VmShare, limit: number) =>
    adding[key] > 0 && held[key] + adding[key] > limit;
  if (crosses('vms', vmsPerRegion)) throw conflict(vmMessages.vmQuota(vmsPerRegion));
  if (crosses('cpu', vcpusPerRegion)) throw conflict(vmMessages.vcpuQuota(vcpusPerRegion));
  if (crosses('ram', ramGbPerRegion)) throw conflict(vmMessages.ramQuota(ramGbPerRegion));
}
