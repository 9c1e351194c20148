import { z } from '../../api/contract/zod';
import { Chip, Flex } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { useCallback } from 'react';
import { vmSortColumns } from '../../api/contract/search-values';
import { pagedQueryProps, useStayWithinPages } from '../../components/data-table/paged-query';
import { DataTable } from '../../components/data-table/data-table';
import { prepareDateFormat } from '../../components/date-format';
import {
  tableSearchDefaults,
  tableSearchProps,
  tableSearchSchema,
} from '../../components/data-table/table-search';
import { vmErrorLeads } from '../../components/error-text';
import { PageHeader } from '../../components/page-header';
import { ALL_TEAMS, teamQueries } from '../../queries/teams';
import { vmQueries } from '../../queries/vms';
import { TeamFilter } from './-components/teams/team-filter';
import { VmStatusFilter } from './-components/vms/status-filter';
import {
  publicIpParam,
  teamIdParam,
  VM_DEFAULT_SORT,
  vmListQuery,
  vmStatusParam,
} from './-components/vms/vm-search';
import { vmColumns } from './-components/vms/vm-table';

/**
 * `/virtualMachines?teamId=3&status=running&publicIp=true&page=2&search=web&sort=status.desc`: a
 * copied link (the Dashboard's figures among them) reopens the view.
 */
const vmsSearch = z.extend(tableSearchSchema(vmSortColumns, VM_DEFAULT_SORT), {
  teamId: teamIdParam,
  status: vmStatusParam,
  publicIp: publicIpParam,
});

export const Route = createFileRoute('/_app/virtualMachines')({
  validateSearch: vmsSearch,
  search: { middlewares: [stripSearchParams(tableSearchDefaults(VM_DEFAULT_SORT))] },
  loaderDeps: ({ search }) => search,
  // Prefetch without waiting: the table shows its spinner (or the previous page) meanwhile, and a
  // failure shows inside the table. The team filter's choices travel with the page.
  loader: ({ context, deps }) => {
    void context.queryClient.prefetchQuery(vmQueries.list(vmListQuery(deps, deps)));
    void context.queryClient.prefetchQuery(teamQueries.list(ALL_TEAMS));
    prepareDateFormat();
  },
  component: VirtualMachinesPage,
});

function VirtualMachinesPage() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const vms = useQuery(vmQueries.list(vmListQuery(search, search)));

  const goToPage = useCallback(
    (page: number) => void navigate({ search: (prev) => ({ ...prev, page }), replace: true }),
    [navigate],
  );
  useStayWithinPages(vms, search.page, goToPage);

  return (
    <>
      <PageHeader
        title="Virtual Machines"
        action={{
          name: 'Create Virtual Machine',
          icon: <IconPlus size={16} aria-hidden />,
          onClick: () => void navigate({ to: '/createVirtualMachine' }),
        }}
      />
      <DataTable
        title="Your Virtual Machines"
        description="Manage and monitor your virtual machines across the global network"
        columns={vmColumns}
        {...pagedQueryProps(vms)}
        getRowId={(row) => String(row.id)}
        {...tableSearchProps(search, (patch, { replace }) => {
          void navigate({ search: (prev) => ({ ...prev, ...patch }), replace });
        })}
        searchPlaceholder="Search virtual machines..."
        emptyMessage="No virtual machines found"
        toolbar={
          <Flex
            gap="xs"
            direction={{ base: 'column', sm: 'row' }}
            align={{ base: 'flex-start', sm: 'center' }}
          >
            <VmStatusFilter
              value={search.status}
              onChange={(status) =>
                void navigate({ search: (prev) => ({ ...prev, status, page: 1 }) })
              }
            />
            <Chip
              checked={search.publicIp === true}
              onChange={(checked) =>
                void navigate({
                  search: (prev) => ({ ...prev, publicIp: checked || undefined, page: 1 }),
                })
              }
              variant="outline"
            >
              With a public IP
            </Chip>
            <TeamFilter
              value={search.teamId}
              onChange={(teamId) =>
                void navigate({ search: (prev) => ({ ...prev, teamId, page: 1 }) })
              }
            />
          </Flex>
        }
        errorTitle={vmErrorLeads.fetchVms}
        onRowClick={(row) =>
          void navigate({
            to: '/virtualMachineDetails/$virtualMachineId',
            params: { virtualMachineId: row.id },
          })
        }
      />
    </>
  );
}
