import { Avatar, Group, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { userSortColumns, type UserRow } from '../../api/contract/users';
import { DataTable } from '../../components/data-table/data-table';
import { createAppColumnHelper } from '../../components/data-table/table-hook';
import {
  tableSearchDefaults,
  tableSearchProps,
  tableSearchSchema,
  toListQuery,
} from '../../components/data-table/table-search';
import { PageHeader } from '../../components/page-header';
import { fullName } from '../../components/user-name';
import { userQueries } from '../../queries/users';

const USERS_PER_PAGE = 10;
const DEFAULT_SORT = 'name.asc';

export const Route = createFileRoute('/_app/users')({
  validateSearch: tableSearchSchema(userSortColumns, DEFAULT_SORT),
  search: { middlewares: [stripSearchParams(tableSearchDefaults(DEFAULT_SORT))] },
  loaderDeps: ({ search }) => search,
  // Prefetch without waiting: the table shows its spinner (or the previous page) meanwhile, and a
  // failure shows inside the table instead of replacing the screen.
  loader: ({ context, deps }) => {
    void context.queryClient.prefetchQuery(userQueries.list(toListQuery(deps, USERS_PER_PAGE)));
  },
  component: UsersPage,
});

const column = createAppColumnHelper<UserRow>();
const columns = [
  column.accessor((row) => fullName(row), {
    id: 'name',
    header: 'User',
    // Fixed so the columns do not jump as pages of different names load.
    meta: { width: '45%' },
    cell: ({ row }) => (
      <Group gap="sm" wrap="nowrap">
        <Avatar color="initials" name={fullName(row.original)} radius="xl" size={32} />
        <Text size="sm" fw={500}>
          {fullName(row.original)}
        </Text>
      </Group>
    ),
  }),
  column.accessor('email', {
    header: 'Email',
    cell: ({ getValue }) => (
      <Text size="sm" c="dimmed">
        {getValue()}
      </Text>
    ),
  }),
];

function UsersPage() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const users = useQuery(userQueries.list(toListQuery(search, USERS_PER_PAGE)));

  return (
    <>
      <PageHeader title="Users" />
      <DataTable
        title="Users"
        description="Manage users and their access permissions"
        columns={columns}
        data={users.data?.data}
        totalPages={users.data?.totalPages}
        getRowId={(row) => String(row.id)}
        {...tableSearchProps(search, (patch, { replace }) => {
          void navigate({ search: (prev) => ({ ...prev, ...patch }), replace });
        })}
        searchPlaceholder="Search users..."
        emptyMessage="No users found"
        isPending={users.isPending}
        isFetching={users.isFetching}
        // A failed refresh of rows already shown is toasted by the query cache; keep the rows.
        error={users.data ? null : users.error}
        errorTitle="Error fetching users"
        onRefresh={() => void users.refetch()}
        onRowClick={(row) => void navigate({ to: '/user', search: { id: row.id } })}
      />
    </>
  );
}
