import type { CompanyLimits } from '../../config';
import type { Tx } from '../../db/client';
import { requireRoom } from '../limits/room';

/** VMs, cores and GB of RAM: what a change adds to what a company holds in a region. */
export interface VmShare {
  vms: number;
  cpu: number;
  ram: number;
}

/**
 * 409 naming the first limit in the region that the change would cross: the operator's quotas
 * (`QUOTA_*_PER_REGION`), then the company's and its reseller's limits (`requireRoom`). A VM being
 * resized counts at the larger of its two sizes until the resize ends. The company's row (and its
 * reseller's) serialises the count with every other create and upgrade, so two requests at once
 * cannot both take the last place.
 */
export async function requireVmRoom(
  tx: Tx,
  owner: { companyId: number; regionId: number; limits: CompanyLimits },
  adding: VmShare,
): Promise<void> {
  await requireRoom(
    tx,
    { companyId: owner.companyId, regionId: owner.regionId, quotas: owner.limits },
    { vms: adding.vms, vcpus: adding.cpu, ramGb: adding.ram },
  );
}
