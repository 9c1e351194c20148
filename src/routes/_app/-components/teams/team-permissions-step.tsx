import { Button, Group, Select, Stack, Text } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { permissionMessages, type PermissionEntry } from '../../../../api/contract/permissions';
import { ROLE } from '../../../../api/contract/roles';
import { DataTable } from '../../../../components/data-table/data-table';
import { createAppColumnHelper } from '../../../../components/data-table/table-hook';
import { DROPDOWN_DEFAULTS } from '../../../../components/dropdown';
import { managementErrorLeads } from '../../../../components/error-text';
import { FormError } from '../../../../components/form-error';
import { notify } from '../../../../components/notify';
import { permissionMutations, permissionQueries } from '../../../../queries/permissions';
import { roleQueries } from '../../../../queries/roles';
import { DimmedCell } from '../../../../components/data-table/cells';

interface TeamPermissionsStepProps {
  teamId: number;
  onBack: () => void;
  onSaved: () => void;
}

/**
 * The wizard's last page: a role per member (every member at once: the permissions list is not
 * paged). Only the rows changed here are sent; Admins keep their fixed role.
 */
export function TeamPermissionsStep({ teamId, onBack, onSaved }: TeamPermissionsStepProps) {
  const permissions = useQuery(permissionQueries.team(teamId));
  const roles = useQuery(roleQueries.list());
  const assign = useMutation(permissionMutations.assign());
  /** The roles chosen here, by user id; kept through a failed save. */
  const [chosen, setChosen] = useState<Record<number, number>>({});

  const entries = permissions.data?.entries;
  const changes = (entries ?? [])
    .filter((entry) => chosen[entry.userId] !== undefined && chosen[entry.userId] !== entry.roleId)
    .map((entry) => ({ userId: entry.userId, roleId: chosen[entry.userId]! }));

  const roleOptions = (roles.data ?? [])
    .filter((role) => role.id !== ROLE.admin)
    .map((role) => ({ value: role.id, label: role.name }));

  const save = async () => {
    if (changes.length > 0) {
      try {
        await assign.mutateAsync({ teamId, assignments: changes });
      } catch {
        return; // shown below; the choices stay
      }
      notify(permissionMessages.permissionsAssigned);
    }
    onSaved();
  };

  const column = createAppColumnHelper<PermissionEntry>();
  const columns = [
    column.accessor('name', { header: 'Member', meta: { card: 'title' } }),
    column.accessor('email', {
      header: 'Email',
      cell: DimmedCell,
    }),
    column.display({
      id: 'role',
      header: 'Role',
      meta: { width: 220 },
      cell: ({ row: { original: entry } }) =>
        entry.roleId === ROLE.admin ? (
          // Admin is the company role: fixed here (spec section 6).
          <Text size="sm">Admin</Text>
        ) : (
          <Select<number>
            {...DROPDOWN_DEFAULTS}
            aria-label={`Role of ${entry.name}`}
            size="xs"
            data={roleOptions}
            value={chosen[entry.userId] ?? entry.roleId}
            onChange={(roleId) => {
              if (roleId !== null) setChosen((prev) => ({ ...prev, [entry.userId]: roleId }));
            }}
            allowDeselect={false}
            disabled={assign.isPending || roles.isPending}
          />
        ),
    }),
  ];

  return (
    <Stack gap="lg">
      <DataTable
        title="Team Member Permissions"
        columns={columns}
        data={entries}
        getRowId={(row) => String(row.userId)}
        emptyMessage="No team members found"
        isPending={permissions.isPending}
        isFetching={permissions.isFetching}
        error={permissions.data ? null : permissions.error}
        errorTitle={managementErrorLeads.fetchTeam}
      />
      <FormError title={managementErrorLeads.updateRole} error={assign.error} />
      <Group justify="space-between" role="group" aria-label="Wizard navigation">
        <Button variant="default" onClick={onBack} disabled={assign.isPending}>
          Back
        </Button>
        <Button onClick={() => void save()} loading={assign.isPending} disabled={!entries}>
          Save Permissions
        </Button>
      </Group>
    </Stack>
  );
}
