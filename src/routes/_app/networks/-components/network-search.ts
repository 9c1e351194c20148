import { z } from '../../../../api/contract/zod';
import type { ListNetworksQuery, NetworkSortColumn } from '../../../../api/contract/networks';
import { toListQuery, type TableSearch } from '../../../../components/data-table/table-search';

// Apart from the columns and the filter so that the route tree (loaded before sign-in) does not
// pull the table.

/** Spec section 9: the network list shows 10 a page. */
export const NETWORKS_PER_PAGE = 10;
export const NETWORK_DEFAULT_SORT = 'name.asc';

/** A region id from the URL: a bad one falls back to all regions rather than an error. */
export const regionIdParam = z.catch(
  z.optional(z.coerce.number().check(z.int(), z.positive())),
  undefined,
);

export const networkListQuery = (
  search: TableSearch<NetworkSortColumn>,
  regionId: number | undefined,
): ListNetworksQuery => ({ ...toListQuery(search, NETWORKS_PER_PAGE), regionId });
