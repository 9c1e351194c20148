import { z } from '../../../api/contract/zod';
import { IconPlus } from '@tabler/icons-react';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { useCallback } from 'react';
import { networkSortColumns } from '../../../api/contract/search-values';
import { pagedQueryProps, useStayWithinPages } from '../../../components/data-table/paged-query';
import { DataTable } from '../../../components/data-table/data-table';
import {
  tableSearchDefaults,
  tableSearchProps,
  tableSearchSchema,
} from '../../../components/data-table/table-search';
import { networkErrorLeads } from '../../../components/error-text';
import { PageHeader } from '../../../components/page-header';
import { authQueries } from '../../../queries/auth';
import { networkQueries } from '../../../queries/networks';
import { networkColumns } from './-components/network-columns';
import { RegionFilter } from './-components/region-filter';
import {
  NETWORK_DEFAULT_SORT,
  networkListQuery,
  regionIdParam,
} from './-components/network-search';

/** `/networks?regionId=4&page=2&search=db&sort=region.desc`: a copied link reopens the view. */
const networksSearch = z.extend(tableSearchSchema(networkSortColumns, NETWORK_DEFAULT_SORT), {
  regionId: regionIdParam,
});

export const Route = createFileRoute('/_app/networks/')({
  validateSearch: networksSearch,
  search: { middlewares: [stripSearchParams(tableSearchDefaults(NETWORK_DEFAULT_SORT))] },
  loaderDeps: ({ search }) => search,
  // Prefetch without waiting: the table shows its spinner (or the previous page) meanwhile, and a
  // failure shows inside the table.
  loader: ({ context, deps }) => {
    void context.queryClient.prefetchQuery(
      networkQueries.list(networkListQuery(deps, deps.regionId)),
    );
  },
  component: NetworksPage,
});

function NetworksPage() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const networks = useQuery(networkQueries.list(networkListQuery(search, search.regionId)));
  const { data: session } = useSuspenseQuery(authQueries.check());

  const goToPage = useCallback(
    (page: number) => void navigate({ search: (prev) => ({ ...prev, page }), replace: true }),
    [navigate],
  );
  useStayWithinPages(networks, search.page, goToPage);

  return (
    <>
      <PageHeader
        title="Networks"
        action={
          // Only Admins create networks; the server refuses anyone else.
          session.user.isAdmin
            ? {
                name: 'Create Network',
                icon: <IconPlus size={16} aria-hidden />,
                onClick: () => void navigate({ to: '/createNetwork' }),
              }
            : undefined
        }
      />
      <DataTable
        title="Your Networks"
        columns={networkColumns}
        {...pagedQueryProps(networks)}
        getRowId={(row) => String(row.id)}
        {...tableSearchProps(search, (patch, { replace }) => {
          void navigate({ search: (prev) => ({ ...prev, ...patch }), replace });
        })}
        searchPlaceholder="Search networks..."
        emptyMessage="No networks found"
        toolbar={
          <RegionFilter
            value={search.regionId}
            onChange={(regionId) =>
              void navigate({ search: (prev) => ({ ...prev, regionId, page: 1 }) })
            }
          />
        }
        errorTitle={networkErrorLeads.fetchNetworks}
        onRowClick={(row) =>
          void navigate({ to: '/networks/$networkId', params: { networkId: row.id } })
        }
      />
    </>
  );
}
