import { z } from '../../../../api/contract/zod';
import { vmStatusFilters, type VmStatusFilter } from '../../../../api/contract/search-values';
import type { ListVmsQuery, VmSortColumn } from '../../../../api/contract/vms';
import { toListQuery, type TableSearch } from '../../../../components/data-table/table-search';

// Apart from the columns so that the route tree (loaded before sign-in) does not pull the table.

/** Spec section 9: VM lists show 10 a page. */
export const VMS_PER_PAGE = 10;
export const VM_DEFAULT_SORT = 'name.asc';

/** A team id from the URL: a bad one falls back to no filter rather than an error. */
export const teamIdParam = z.catch(
  z.optional(z.coerce.number().check(z.int(), z.positive())),
  undefined,
);

/** A status filter from the URL (`?status=running`): a bad one falls back to all statuses. */
export const vmStatusParam = z.catch(z.optional(z.enum(vmStatusFilters)), undefined);

/** `?publicIp=true`: only the VMs holding a public IP; anything else lifts the filter. */
export const publicIpParam = z.catch(z.optional(z.literal(true)), undefined);

/** The filters a VM list may carry beside its table state. */
export interface VmFilters {
  teamId?: number;
  status?: VmStatusFilter;
  publicIp?: true;
}

export const vmListQuery = (
  search: TableSearch<VmSortColumn>,
  { teamId, status, publicIp }: VmFilters = {},
): ListVmsQuery => ({
  ...toListQuery(search, VMS_PER_PAGE),
  teamId,
  ...(status && { status }),
  ...(publicIp && { publicIp }),
});
