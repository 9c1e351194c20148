import { ActionIcon, Code, Stack, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import type { SshKey } from '../../../../api/contract/ssh-keys';
import { NameCell } from '../../../../components/data-table/cells';
import { createAppColumnHelper } from '../../../../components/data-table/table-hook';
import { formatDate } from '../../../../components/date-format';
import { keyTypeLabel } from './ssh-key-labels';

const column = createAppColumnHelper<SshKey>();

/** The columns of the user's own SSH keys. */
export const sshKeyColumns = (onDelete: (key: SshKey) => void) => [
  column.accessor('name', { header: 'Name', meta: { card: 'title' }, cell: NameCell }),
  column.display({
    id: 'type',
    header: 'Type',
    cell: ({ row }) => (
      <Stack gap={0}>
        <Text size="sm">{keyTypeLabel(row.original)}</Text>
        {row.original.comment && (
          <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
            {row.original.comment}
          </Text>
        )}
      </Stack>
    ),
  }),
  column.accessor('fingerprint', {
    header: 'Fingerprint',
    cell: ({ getValue }) => (
      <Code style={{ wordBreak: 'break-all', whiteSpace: 'normal' }}>{getValue()}</Code>
    ),
  }),
  column.accessor('createdAt', {
    header: 'Added',
    cell: ({ getValue }) => <Text size="sm">{formatDate(getValue())}</Text>,
  }),
  column.display({
    id: 'actions',
    header: () => <VisuallyHidden>Actions</VisuallyHidden>,
    meta: { width: 56, align: 'right', card: 'action' },
    cell: ({ row }) => (
      <Tooltip label="Delete">
        <ActionIcon
          variant="subtle"
          color="red"
          aria-label={`Delete ${row.original.name}`}
          onClick={() => onDelete(row.original)}
        >
          <IconTrash size={18} aria-hidden />
        </ActionIcon>
      </Tooltip>
    ),
  }),
];
