import { ActionIcon, Loader, Select, Skeleton, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconUserMinus } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { ROLE, type Role } from '../../../../api/contract/roles';
import type { UserDetails, UserTeamRow } from '../../../../api/contract/users';
import { ConfirmDialog } from '../../../../components/confirm-dialog';
import { DataTable } from '../../../../components/data-table/data-table';
import { createAppColumnHelper } from '../../../../components/data-table/table-hook';
import { DROPDOWN_DEFAULTS } from '../../../../components/dropdown';
import { managementErrorLeads, withLead } from '../../../../components/error-text';
import { notify } from '../../../../components/notify';
import { fullName } from '../../../../components/user-name';
import { roleMutations, roleQueries } from '../../../../queries/roles';
import { teamMutations } from '../../../../queries/teams';
import { userQueries } from '../../../../queries/users';
import { membershipsQuery } from './memberships-query';

type SearchPatch = Partial<{ page: number; search: string }>;

interface UserMembershipsProps {
  user: UserDetails;
  /**
   * Whether roles and memberships can be changed here: Admins only. Team Managers change their
   * team's members in the team wizard.
   */
  canManage: boolean;
  page: number;
  search: string;
  /** Moves the URL; typing replaces the entry, paging adds one. */
  onSearchParams: (patch: SearchPatch, options: { replace: boolean }) => void;
}

const column = createAppColumnHelper<UserTeamRow>();

const membershipColumns = (
  userId: number,
  roles: Role[] | undefined,
  onRemove: ((team: UserTeamRow) => void) | undefined,
) => [
  column.accessor('name', { header: 'Team', meta: { width: '50%', card: 'title' } }),
  column.accessor('roleId', {
    header: 'Role',
    cell: ({ row }) =>
      // An Admin is one company-wide; it is not a per-team choice (spec section 6).
      row.original.roleId === ROLE.admin ? (
        <Text size="sm" fw={500}>
          Admin
        </Text>
      ) : !onRemove ? (
        <Text size="sm">{roles?.find((role) => role.id === row.original.roleId)?.name}</Text>
      ) : roles ? (
        <RoleSelect userId={userId} team={row.original} roles={roles} />
      ) : (
        <Skeleton height={30} width={180} />
      ),
  }),
  ...(onRemove ? [removeColumn(onRemove)] : []),
];

// An Admin's role is fixed, but an Admin's membership can be removed like any other.
const removeColumn = (onRemove: (team: UserTeamRow) => void) =>
  column.display({
    id: 'actions',
    header: () => <VisuallyHidden>Actions</VisuallyHidden>,
    meta: { width: 56, align: 'right', card: 'action' },
    cell: ({ row }) => (
      <Tooltip label="Remove from team">
        <ActionIcon
          variant="subtle"
          color="red"
          aria-label={`Remove from ${row.original.name}`}
          onClick={() => onRemove(row.original)}
        >
          <IconUserMinus size={18} aria-hidden />
        </ActionIcon>
      </Tooltip>
    ),
  });

/** The teams a user belongs to, their role in each, and leaving a team. */
export function UserMemberships({
  user,
  canManage,
  page,
  search,
  onSearchParams,
}: UserMembershipsProps) {
  const teams = useQuery(userQueries.teams(user.id, membershipsQuery({ page, search })));
  const roles = useQuery(roleQueries.list());

  // The target outlives `opened` so the title does not go blank while the dialog fades out.
  const [target, setTarget] = useState<UserTeamRow | null>(null);
  const [opened, setOpened] = useState(false);
  const removeUser = useMutation(teamMutations.removeUser());
  const columns = useMemo(
    () =>
      membershipColumns(
        user.id,
        roles.data,
        canManage
          ? (team) => {
              setTarget(team);
              setOpened(true);
            }
          : undefined,
      ),
    [user.id, roles.data, canManage],
  );

  // Removing the only team of the last page leaves a page past the end: show the new last page.
  const lastPage = teams.isPlaceholderData ? undefined : teams.data?.totalPages;
  useEffect(() => {
    if (lastPage !== undefined && page > lastPage)
      onSearchParams({ page: lastPage }, { replace: true });
  }, [lastPage, page, onSearchParams]);

  // Rows already shown stay on a failed refresh (the query cache toasts it).
  const teamsError = teams.data ? null : teams.error;
  const rolesError = roles.data ? null : roles.error;

  return (
    <>
      <DataTable
        title="Team Memberships"
        description="The teams this user belongs to, and their role in each"
        columns={columns}
        data={teams.data?.data}
        totalPages={teams.data?.totalPages}
        getRowId={(row) => String(row.id)}
        page={page}
        onPageChange={(next) => onSearchParams({ page: next }, { replace: false })}
        search={search}
        onSearchChange={(text) => onSearchParams({ search: text, page: 1 }, { replace: true })}
        searchPlaceholder="Search teams..."
        emptyMessage="No teams found"
        isPending={teams.isPending}
        isFetching={teams.isFetching}
        error={teamsError ?? rolesError}
        errorTitle={teamsError ? managementErrorLeads.fetchTeams : managementErrorLeads.fetchRoles}
        onRefresh={() => void teams.refetch()}
      />
      <ConfirmDialog
        opened={opened}
        title={`Remove from ${target?.name ?? ''}?`}
        confirmLabel="Remove"
        busyLabel="Removing..."
        errorLead={managementErrorLeads.removeTeamUser}
        onConfirm={async () => {
          if (!target) return;
          // Resolves once the memberships have reloaded (the invalidation is awaited).
          const { message } = await removeUser.mutateAsync({ teamId: target.id, userId: user.id });
          notify(message);
        }}
        onClose={() => setOpened(false)}
      >
        {fullName(user)} will lose access to {target?.name} and its resources.
      </ConfirmDialog>
    </>
  );
}

/**
 * One membership's role. While the change is on its way the new role shows; when it fails the
 * previous one comes back (the row was never changed) and a toast says why.
 */
function RoleSelect({ userId, team, roles }: { userId: number; team: UserTeamRow; roles: Role[] }) {
  const update = useMutation(roleMutations.updateForTeam());
  const pendingRole = update.isPending ? update.variables.roleId : undefined;
  const shown = typeof pendingRole === 'number' ? pendingRole : team.roleId;

  return (
    <Select<number>
      {...DROPDOWN_DEFAULTS}
      aria-label={`Role in ${team.name}`}
      data={roles
        .filter((role) => role.id !== ROLE.admin)
        .map((role) => ({ value: role.id, label: role.name }))}
      value={shown}
      allowDeselect={false}
      // Read-only rather than disabled: the focus stays put for keyboard users.
      readOnly={update.isPending}
      rightSection={update.isPending ? <Loader size="xs" aria-label="Saving role" /> : undefined}
      onChange={(roleId) => {
        if (roleId === null || roleId === team.roleId) return;
        update.mutate(
          { teamId: team.id, userId, roleId },
          {
            onSuccess: ({ message }) => notify(message),
            onError: (error) =>
              notify(withLead(managementErrorLeads.updateRole, error), { type: 'error' }),
          },
        );
      }}
      w={200}
    />
  );
}
