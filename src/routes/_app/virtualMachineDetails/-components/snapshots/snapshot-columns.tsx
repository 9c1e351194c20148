import { Badge, Button, Group, Loader, Stack, Text } from '@mantine/core';
import type { SnapshotStatus, VmSnapshot } from '../../../../../api/contract/vm-snapshots';
import { createAppColumnHelper } from '../../../../../components/data-table/table-hook';
import { formatDateTime } from '../../../../../components/date-format';
import { formatBytes } from './format-bytes';

const column = createAppColumnHelper<VmSnapshot>();

const statusLooks: Record<SnapshotStatus, { label: string; color: string; moving: boolean }> = {
  creating: { label: 'Creating', color: 'blue', moving: true },
  available: { label: 'Available', color: 'green', moving: false },
  restoring: { label: 'Restoring', color: 'blue', moving: true },
  deleting: { label: 'Deleting', color: 'blue', moving: true },
  error: { label: 'Error', color: 'red', moving: false },
};

function StatusCell({ status }: { status: SnapshotStatus }) {
  const look = statusLooks[status];
  return (
    <Badge
      variant="light"
      color={look.color}
      miw="max-content"
      leftSection={look.moving ? <Loader size={8} color={look.color} aria-hidden /> : null}
    >
      {look.label}
    </Badge>
  );
}

export interface SnapshotActions {
  /** Whether the caller may restore and delete (null: not at all, the column is left out). */
  why: (snapshot: VmSnapshot, action: 'restore' | 'delete') => string | null;
  onRestore: (snapshot: VmSnapshot) => void;
  onDelete: (snapshot: VmSnapshot) => void;
}

/** A snapshot's name (and why it is in error), size, time, status and, for operators, actions. */
export const snapshotColumns = (actions: SnapshotActions | null) => [
  column.accessor('name', {
    header: 'Name',
    meta: { card: 'title' },
    cell: ({ row }) => (
      <Stack gap={2}>
        <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
          {row.original.name}
        </Text>
        {row.original.statusMessage && (
          <Text size="xs" c="red" maw={320}>
            {row.original.statusMessage}
          </Text>
        )}
      </Stack>
    ),
  }),
  column.accessor('sizeBytes', {
    header: 'Size',
    cell: ({ getValue }) => {
      const size = getValue();
      return (
        <Text size="sm" c={size === null ? 'dimmed' : undefined} style={{ whiteSpace: 'nowrap' }}>
          {size === null ? '-' : formatBytes(size)}
        </Text>
      );
    },
  }),
  column.accessor('createdAt', {
    header: 'Taken',
    cell: ({ getValue }) => (
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {formatDateTime(getValue())}
      </Text>
    ),
  }),
  column.accessor('status', {
    header: 'Status',
    meta: { card: 'status' },
    cell: ({ getValue }) => <StatusCell status={getValue()} />,
  }),
  ...(actions
    ? [
        column.display({
          id: 'actions',
          header: 'Actions',
          meta: { align: 'right', label: 'Actions' },
          cell: ({ row }) => {
            const snapshot = row.original;
            const restoreWhy = actions.why(snapshot, 'restore');
            const deleteWhy = actions.why(snapshot, 'delete');
            return (
              <Group gap="xs" justify="flex-end" wrap="nowrap">
                <Button
                  size="xs"
                  variant="default"
                  disabled={restoreWhy !== null}
                  title={restoreWhy ?? undefined}
                  aria-label={`Restore ${snapshot.name}`}
                  onClick={() => actions.onRestore(snapshot)}
                >
                  Restore
                </Button>
                <Button
                  size="xs"
                  variant="light"
                  color="red"
                  disabled={deleteWhy !== null}
                  title={deleteWhy ?? undefined}
                  aria-label={`Delete ${snapshot.name}`}
                  onClick={() => actions.onDelete(snapshot)}
                >
                  Delete
                </Button>
              </Group>
            );
          },
        }),
      ]
    : []),
];
