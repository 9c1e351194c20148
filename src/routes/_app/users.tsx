import { ActionIcon, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { useCallback, useMemo, useState } from 'react';
import { type UserRow } from '../../api/contract/users';
import { userSortColumns } from '../../api/contract/search-values';
import { pagedQueryProps, useStayWithinPages } from '../../components/data-table/paged-query';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataTable } from '../../components/data-table/data-table';
import { createAppColumnHelper } from '../../components/data-table/table-hook';
import {
  tableSearchDefaults,
  tableSearchProps,
  tableSearchSchema,
  toListQuery,
} from '../../components/data-table/table-search';
import { managementErrorLeads } from '../../components/error-text';
import { notify } from '../../components/notify';
import { PageHeader } from '../../components/page-header';
import { fullName } from '../../components/user-name';
import { authQueries } from '../../queries/auth';
import { userMutations, userQueries } from '../../queries/users';
import { DimmedCell, PersonCell } from '../../components/data-table/cells';

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

const nameColumns = [
  column.accessor((row) => fullName(row), {
    id: 'name',
    header: 'User',
    // Fixed so the columns do not jump as pages of different names load.
    meta: { width: '45%', card: 'title' },
    cell: ({ row }) => <PersonCell name={fullName(row.original)} />,
  }),
  column.accessor('email', {
    header: 'Email',
    cell: DimmedCell,
  }),
];

/**
 * The columns depend on who is signed in: only Admins manage users, and nobody gets a delete
 * control on their own row.
 */
const userColumns = (ownId: number, onDelete: ((row: UserRow) => void) | undefined) => [
  ...nameColumns,
  ...(onDelete ? [deleteColumn(ownId, onDelete)] : []),
];

const deleteColumn = (ownId: number, onDelete: (row: UserRow) => void) =>
  column.display({
    id: 'actions',
    header: () => <VisuallyHidden>Actions</VisuallyHidden>,
    meta: { width: 56, align: 'right', card: 'action' },
    cell: ({ row }) =>
      row.original.id === ownId ? null : (
        <Tooltip label="Delete user">
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={`Delete ${fullName(row.original)}`}
            // The row opens the user page; this button must not.
            onClick={(event) => {
              event.stopPropagation();
              onDelete(row.original);
            }}
          >
            <IconTrash size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
      ),
  });

function UsersPage() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const users = useQuery(userQueries.list(toListQuery(search, USERS_PER_PAGE)));
  const { data: session } = useSuspenseQuery(authQueries.check());
  const ownId = session.user.id;
  const isAdmin = session.user.isAdmin;

  // The target outlives `opened` so the title does not go blank while the dialog fades out.
  const [target, setTarget] = useState<UserRow | null>(null);
  const [opened, setOpened] = useState(false);
  const deleteUser = useMutation(userMutations.delete());
  const columns = useMemo(
    () =>
      userColumns(
        ownId,
        isAdmin
          ? (row) => {
              setTarget(row);
              setOpened(true);
            }
          : undefined,
      ),
    [ownId, isAdmin],
  );

  const goToPage = useCallback(
    (page: number) => void navigate({ search: (prev) => ({ ...prev, page }), replace: true }),
    [navigate],
  );
  useStayWithinPages(users, search.page, goToPage);

  return (
    <>
      <PageHeader
        title="Users"
        action={
          isAdmin
            ? {
                name: 'Create User',
                icon: <IconPlus size={16} aria-hidden />,
                onClick: () => void navigate({ to: '/createUser' }),
              }
            : undefined
        }
      />
      <DataTable
        title="Users"
        description="Manage users and their access permissions"
        columns={columns}
        {...pagedQueryProps(users)}
        getRowId={(row) => String(row.id)}
        {...tableSearchProps(search, (patch, { replace }) => {
          void navigate({ search: (prev) => ({ ...prev, ...patch }), replace });
        })}
        searchPlaceholder="Search users..."
        emptyMessage="No users found"
        errorTitle={managementErrorLeads.fetchUsers}
        onRowClick={(row) => void navigate({ to: '/user', search: { id: row.id } })}
      />
      <ConfirmDialog
        opened={opened}
        title={`Delete ${target ? fullName(target) : ''}?`}
        errorLead={managementErrorLeads.deleteUser}
        onConfirm={async () => {
          if (!target) return;
          // Resolves once the list has reloaded (the mutation's invalidation is awaited).
          const { message } = await deleteUser.mutateAsync(target.id);
          notify(message);
        }}
        onClose={() => setOpened(false)}
      >
        This user will be deleted completely and signed out everywhere. This action cannot be
        reversed.
      </ConfirmDialog>
    </>
  );
}
