import { ActionIcon, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useMemo, useState } from 'react';
import type { TeamRow } from '../api/contract/teams';
import { authQueries } from '../queries/auth';
import { teamMutations, teamQueries } from '../queries/teams';
import { ConfirmDialog } from './confirm-dialog';
import { DataTable } from './data-table/data-table';
import { createAppColumnHelper } from './data-table/table-hook';
import { managementErrorLeads } from './error-text';
import { teamsListQuery, type TeamsTableState } from './teams-list-query';

/** Spec section 9, "Teams list load delay": the list reloads this long after page or search change. */
export const TEAMS_LOAD_DELAY_MS = 200;

/** A team, or the Unassigned summary row (users and VMs in no team) drawn above them. */
type TeamsTableRow = TeamRow & { unassigned?: true };

const UNASSIGNED_ID = 'unassigned';

interface TeamsTableProps {
  state: TeamsTableState;
  /** Writes the state back (to the URL); `replace` for a search, so Back skips typed words. */
  onStateChange: (patch: Partial<TeamsTableState>, options: { replace: boolean }) => void;
}

/** The Teams table of the Teams screen (and the Dashboard's Teams tab): paged, searched, deletable. */
export function TeamsTable({ state, onStateChange }: TeamsTableProps) {
  const navigate = useNavigate();
  const { data: auth } = useQuery(authQueries.check());
  // Creating and deleting teams is for Admins; the server would refuse anybody else.
  const canDelete = auth?.user.isAdmin ?? false;

  // The URL moves at once; the request follows after the spec's delay (a stable object so the
  // debounce only restarts when page or search really change). A new search goes at once: the
  // search box has waited those 200 ms already, and twice would make it ~400.
  const { page, search } = state;
  const query = useMemo(() => teamsListQuery({ page, search }), [page, search]);
  const [delayedQuery] = useDebouncedValue(query, TEAMS_LOAD_DELAY_MS);
  const sent = delayedQuery.search === query.search ? delayedQuery : query;
  const waiting = sent !== query;
  const teams = useQuery(teamQueries.list(sent));

  // A delete can leave the URL past the last page: show the last one instead.
  const totalPages = teams.data?.totalPages;
  useEffect(() => {
    if (totalPages !== undefined && !teams.isPlaceholderData && page > totalPages) {
      onStateChange({ page: totalPages }, { replace: true });
    }
  }, [totalPages, teams.isPlaceholderData, page, onStateChange]);

  const [deleting, setDeleting] = useState<{ team: TeamRow; opened: boolean } | null>(null);
  const deleteTeam = useMutation(teamMutations.delete());

  // A failed load shows zero unassigned (spec section 4); the row waits for the first answer.
  const error = teams.data ? null : teams.error;
  const pinnedRows = useMemo<TeamsTableRow[]>(() => {
    if (!teams.data && !error) return [];
    return [
      {
        id: 0,
        name: 'Unassigned',
        userCount: teams.data?.unassignedUsers ?? 0,
        vmCount: teams.data?.unassignedVMs ?? 0,
        unassigned: true,
      },
    ];
  }, [teams.data, error]);

  const columns = useMemo(() => {
    const column = createAppColumnHelper<TeamsTableRow>();
    return [
      column.accessor('name', {
        header: 'Name',
        meta: { width: '50%', card: 'title' },
        cell: ({ row }) =>
          row.original.unassigned ? (
            <Text size="sm" fs="italic" c="dimmed">
              {row.original.name}
            </Text>
          ) : (
            <Text size="sm" fw={500}>
              {row.original.name}
            </Text>
          ),
      }),
      column.accessor('userCount', { header: 'Users' }),
      column.accessor('vmCount', { header: 'VMs' }),
      ...(canDelete
        ? [
            column.display({
              id: 'actions',
              header: () => <VisuallyHidden>Actions</VisuallyHidden>,
              meta: { width: 56, align: 'right', card: 'action' },
              cell: ({ row }) =>
                row.original.unassigned ? null : (
                  <Tooltip label="Delete team">
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`Delete ${row.original.name}`}
                      onClick={(event) => {
                        // The row opens the team; the trash must not.
                        event.stopPropagation();
                        setDeleting({ team: row.original, opened: true });
                      }}
                    >
                      <IconTrash size={18} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                ),
            }),
          ]
        : []),
    ];
  }, [canDelete]);

  return (
    <>
      <DataTable<TeamsTableRow>
        title="Teams"
        description="Manage teams and their resource allocations"
        columns={columns}
        data={teams.data?.data}
        pinnedRows={pinnedRows}
        getRowId={(row) => (row.unassigned ? UNASSIGNED_ID : String(row.id))}
        page={page}
        totalPages={totalPages}
        onPageChange={(next) => onStateChange({ page: next }, { replace: false })}
        search={search}
        onSearchChange={(text) => onStateChange({ search: text, page: 1 }, { replace: true })}
        searchPlaceholder="Search teams..."
        emptyMessage="No teams found"
        isPending={teams.isPending}
        isFetching={teams.isFetching || waiting}
        // A failed refresh of rows already shown is toasted by the query cache; keep the rows.
        error={error}
        errorTitle={managementErrorLeads.fetchTeams}
        onRefresh={() => void teams.refetch()}
        onRowClick={(row) => {
          if (!row.unassigned) void navigate({ to: '/team', search: { id: row.id } });
        }}
      />
      <ConfirmDialog
        opened={deleting?.opened ?? false}
        // The name stays while the dialog fades out.
        title={`Delete ${deleting?.team.name ?? ''}?`}
        busyLabel="Deleting..."
        errorLead={managementErrorLeads.deleteTeam}
        onConfirm={() => deleteTeam.mutateAsync(deleting!.team.id)}
        onClose={() => setDeleting((current) => current && { ...current, opened: false })}
      >
        This team will be deleted completely. This action cannot be reversed.
      </ConfirmDialog>
    </>
  );
}
