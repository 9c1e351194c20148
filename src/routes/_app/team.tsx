import { Alert, Box, Center, Loader, Paper } from '@mantine/core';
import { IconAlertCircle, IconPencil } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { z } from '../../api/contract/zod';
import { roleAllows, type TeamPermission } from '../../api/contract/permissions';
import { teamMessages, type TeamMember } from '../../api/contract/teams';
import { vmSortColumns } from '../../api/contract/search-values';
import { DataTable } from '../../components/data-table/data-table';
import { createAppColumnHelper } from '../../components/data-table/table-hook';
import { tableSearchSchema } from '../../components/data-table/table-search';
import { prepareDateFormat } from '../../components/date-format';
import { managementErrorLeads } from '../../components/error-text';
import { PageHeader } from '../../components/page-header';
import { roleQueries } from '../../queries/roles';
import { teamQueries } from '../../queries/teams';
import { vmQueries } from '../../queries/vms';
import { TeamRenameForm } from './-components/teams/team-rename-form';
import { DimmedCell, PersonCell } from '../../components/data-table/cells';
import { TeamVmsTable } from './-components/teams/team-vms-table';
import { VM_DEFAULT_SORT, vmListQuery } from './-components/vms/vm-search';

const MEMBERS_PER_PAGE = 5;

const vmTableSearch = tableSearchSchema(vmSortColumns, VM_DEFAULT_SORT);

/**
 * `/team?id=7`, with the members table's `page` and `search` (the API takes no sort) and the VMs
 * table's `vmPage`, `vmSearch` and `vmSort`. A missing or malformed id falls back to 0, which
 * names no team.
 */
const teamSearch = z.extend(
  z.pick(tableSearchSchema(['name'], 'name.asc'), { page: true, search: true }),
  {
    id: z.catch(z.int().check(z.nonnegative()), 0),
    vmPage: vmTableSearch.shape.page,
    vmSearch: vmTableSearch.shape.search,
    vmSort: vmTableSearch.shape.sort,
  },
);
type TeamSearch = z.output<typeof teamSearch>;

const vmState = (search: TeamSearch) => ({
  page: search.vmPage,
  search: search.vmSearch,
  sort: search.vmSort,
});

const membersQuery = ({ page, search }: { page: number; search: string }) => ({
  page,
  rowsPerPage: MEMBERS_PER_PAGE,
  search: search.trim(),
});

export const Route = createFileRoute('/_app/team')({
  validateSearch: teamSearch,
  search: {
    middlewares: [
      stripSearchParams({ page: 1, search: '', vmPage: 1, vmSearch: '', vmSort: VM_DEFAULT_SORT }),
    ],
  },
  loaderDeps: ({ search }) => search,
  // Prefetch without waiting: the page shows its loaders meanwhile, and a failure in place.
  loader: ({ context, deps }) => {
    void context.queryClient.prefetchQuery(roleQueries.list());
    if (deps.id > 0) {
      void context.queryClient.prefetchQuery(teamQueries.detail(deps.id, membersQuery(deps)));
      void context.queryClient.prefetchQuery(
        vmQueries.list(vmListQuery(vmState(deps), { teamId: deps.id })),
      );
      prepareDateFormat();
    }
  },
  component: TeamPage,
});

function TeamPage() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const { id } = search;
  const team = useQuery({
    ...teamQueries.detail(id, membersQuery(search)),
    enabled: id > 0,
  });
  const roles = useQuery(roleQueries.list());
  const roleName = (roleId: number) => roles.data?.find((role) => role.id === roleId)?.name ?? '';
  // Offer only what the caller's role on this team allows; the server refuses the rest anyway.
  const can = (permission: TeamPermission) => roleAllows(team.data?.yourRoleId ?? 0, permission);

  const header = (
    <PageHeader
      title={team.data?.teamName ?? 'Team'}
      onBack={() => void navigate({ to: '/teams' })}
      action={
        can('team.rename') || can('team.members')
          ? {
              name: 'Edit Team',
              icon: <IconPencil size={16} aria-hidden />,
              onClick: () => void navigate({ to: '/createEditTeam', search: { id } }),
            }
          : undefined
      }
    />
  );

  const error = id > 0 ? team.error : new Error(teamMessages.notFound);
  if (!team.data && error) {
    return (
      <>
        {header}
        <Alert
          color="red"
          variant="light"
          title={managementErrorLeads.fetchTeam}
          icon={<IconAlertCircle aria-hidden />}
        >
          {error.message}
        </Alert>
      </>
    );
  }

  const column = createAppColumnHelper<TeamMember>();
  const columns = [
    column.accessor('name', {
      header: 'User',
      meta: { width: '40%', card: 'title' },
      cell: ({ row }) => <PersonCell name={row.original.name} />,
    }),
    column.accessor((row) => roleName(row.roleId), { id: 'role', header: 'Role' }),
    column.accessor('email', {
      header: 'Email',
      cell: DimmedCell,
    }),
  ];

  return (
    <>
      {header}
      {team.data ? (
        // Keyed: another team starts the form afresh from its own name.
        <TeamRenameForm
          key={id}
          teamId={id}
          name={team.data.teamName}
          readOnly={!can('team.rename')}
        />
      ) : (
        <Paper withBorder radius="md" shadow="xs" p="lg" mb="lg">
          <Center>
            <Loader size="sm" aria-label="Loading team" />
          </Center>
        </Paper>
      )}
      <DataTable
        title="Team Members"
        columns={columns}
        data={team.data?.members}
        totalPages={team.data?.totalPages}
        getRowId={(row) => String(row.id)}
        page={search.page}
        onPageChange={(page) => void navigate({ search: (prev) => ({ ...prev, page }) })}
        search={search.search}
        onSearchChange={(text) =>
          void navigate({ search: (prev) => ({ ...prev, search: text, page: 1 }), replace: true })
        }
        searchPlaceholder="Search team members..."
        emptyMessage="No team members found"
        isPending={team.isPending}
        isFetching={team.isFetching}
        onRefresh={() => void team.refetch()}
        onRowClick={(row) => void navigate({ to: '/user', search: { id: row.id } })}
      />
      {team.data && (
        <Box mt="lg">
          <TeamVmsTable
            teamId={id}
            state={vmState(search)}
            onStateChange={(patch, { replace }) =>
              void navigate({
                search: (prev) => ({
                  ...prev,
                  ...(patch.page !== undefined ? { vmPage: patch.page } : {}),
                  ...(patch.search !== undefined ? { vmSearch: patch.search } : {}),
                  ...(patch.sort !== undefined ? { vmSort: patch.sort } : {}),
                }),
                replace,
              })
            }
          />
        </Box>
      )}
    </>
  );
}
