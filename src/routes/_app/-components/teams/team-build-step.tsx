import { Button, Group, SimpleGrid } from '@mantine/core';
import { IconPlus, IconUserMinus } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { TeamMember } from '../../../../api/contract/teams';
import type { UserRow } from '../../../../api/contract/users';
import { DataTable } from '../../../../components/data-table/data-table';
import { createAppColumnHelper } from '../../../../components/data-table/table-hook';
import { managementErrorLeads, withLead } from '../../../../components/error-text';
import { notify } from '../../../../components/notify';
import { fullName } from '../../../../components/user-name';
import { teamMutations, teamQueries } from '../../../../queries/teams';
import { userQueries } from '../../../../queries/users';
import { MEMBERS_PER_PAGE } from './team-wizard';
import { DimmedCell } from '../../../../components/data-table/cells';

const USERS_PER_PAGE = 10;

interface TeamBuildStepProps {
  teamId: number;
  onBack: () => void;
  onNext: () => void;
}

/** The wizard's second page: users who could join, and the members, side by side. */
export function TeamBuildStep({ teamId, onBack, onNext }: TeamBuildStepProps) {
  return (
    <>
      <SimpleGrid cols={{ base: 1, xl: 2 }} spacing="lg">
        <AvailableUsersTable teamId={teamId} />
        <MembersTable teamId={teamId} />
      </SimpleGrid>
      <Group justify="space-between" mt="lg" role="group" aria-label="Wizard navigation">
        <Button variant="default" onClick={onBack}>
          Back
        </Button>
        <Button onClick={onNext}>Next</Button>
      </Group>
    </>
  );
}

/** Page and search of a table on this page (component state: the wizard's URL is only its id). */
function useListState() {
  const [state, setState] = useState({ page: 1, search: '' });
  return {
    state,
    props: {
      page: state.page,
      onPageChange: (page: number) => setState((prev) => ({ ...prev, page })),
      search: state.search,
      onSearchChange: (search: string) => setState({ search, page: 1 }),
    },
    /** A page emptied by a change (the last user added away) falls back to the last page. */
    clamp: (totalPages: number | undefined) => {
      if (totalPages !== undefined && state.page > totalPages) {
        setState((prev) => ({ ...prev, page: totalPages }));
      }
    },
  };
}

function AvailableUsersTable({ teamId }: { teamId: number }) {
  const list = useListState();
  const users = useQuery(
    userQueries.list({
      page: list.state.page,
      rowsPerPage: USERS_PER_PAGE,
      search: list.state.search.trim(),
      sortColumn: 'name',
      sortDescending: false,
      excludeTeamId: teamId,
    }),
  );
  if (!users.isPlaceholderData) list.clamp(users.data?.totalPages);

  const column = createAppColumnHelper<UserRow>();
  const columns = [
    column.accessor((row) => fullName(row), {
      id: 'name',
      header: 'User',
      meta: { card: 'title' },
    }),
    column.accessor('email', {
      header: 'Email',
      cell: DimmedCell,
    }),
    column.display({
      id: 'add',
      header: () => null,
      meta: { align: 'right', width: 96, card: 'action' },
      cell: ({ row }) => <AddButton teamId={teamId} user={row.original} />,
    }),
  ];

  return (
    <DataTable
      title="Available Users"
      columns={columns}
      data={users.data?.data}
      totalPages={users.data?.totalPages}
      getRowId={(row) => String(row.id)}
      {...list.props}
      searchPlaceholder="Search users..."
      emptyMessage="No users found"
      isPending={users.isPending}
      isFetching={users.isFetching}
      error={users.data ? null : users.error}
      errorTitle={managementErrorLeads.fetchUsers}
    />
  );
}

/** Its own mutation per row, so each row shows its own progress. Joins as Viewer (the default). */
function AddButton({ teamId, user }: { teamId: number; user: UserRow }) {
  const add = useMutation({
    ...teamMutations.addUser(),
    onError: (error) =>
      notify(withLead(managementErrorLeads.addTeamUser, error), { type: 'error' }),
  });
  return (
    <Button
      size="xs"
      variant="light"
      leftSection={<IconPlus size={14} aria-hidden />}
      aria-label={`Add ${fullName(user)}`}
      loading={add.isPending}
      onClick={() => add.mutate({ teamId, userId: user.id })}
    >
      Add
    </Button>
  );
}

function MembersTable({ teamId }: { teamId: number }) {
  const list = useListState();
  const team = useQuery(
    teamQueries.detail(teamId, {
      page: list.state.page,
      rowsPerPage: MEMBERS_PER_PAGE,
      search: list.state.search.trim(),
    }),
  );
  if (!team.isPlaceholderData) list.clamp(team.data?.totalPages);

  const column = createAppColumnHelper<TeamMember>();
  const columns = [
    column.accessor('name', { header: 'User', meta: { card: 'title' } }),
    column.accessor('email', {
      header: 'Email',
      cell: DimmedCell,
    }),
    column.display({
      id: 'remove',
      header: () => null,
      meta: { align: 'right', width: 112, card: 'action' },
      cell: ({ row }) => <RemoveButton teamId={teamId} member={row.original} />,
    }),
  ];

  return (
    <DataTable
      title="Team Members"
      columns={columns}
      data={team.data?.members}
      totalPages={team.data?.totalPages}
      getRowId={(row) => String(row.id)}
      {...list.props}
      searchPlaceholder="Search team members..."
      emptyMessage="No team members found"
      isPending={team.isPending}
      isFetching={team.isFetching}
      error={team.data ? null : team.error}
      errorTitle={managementErrorLeads.fetchTeam}
    />
  );
}

function RemoveButton({ teamId, member }: { teamId: number; member: TeamMember }) {
  const remove = useMutation({
    ...teamMutations.removeUser(),
    onError: (error) =>
      notify(withLead(managementErrorLeads.removeTeamUser, error), { type: 'error' }),
  });
  return (
    <Button
      size="xs"
      variant="light"
      color="red"
      leftSection={<IconUserMinus size={14} aria-hidden />}
      aria-label={`Remove ${member.name}`}
      loading={remove.isPending}
      onClick={() => remove.mutate({ teamId, userId: member.id })}
    >
      Remove
    </Button>
  );
}
