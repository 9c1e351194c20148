import { ActionIcon, Badge, Group, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import type { Passkey } from '../../../../api/contract/passkeys';
import { NameCell } from '../../../../components/data-table/cells';
import { createAppColumnHelper } from '../../../../components/data-table/table-hook';
import { formatDate, formatDateTime } from '../../../../components/date-format';

const column = createAppColumnHelper<Passkey>();

/** The user's passkeys and security keys, each renamed or removed from its row. */
export const passkeyColumns = (actions: {
  onRename: (passkey: Passkey) => void;
  onRemove: (passkey: Passkey) => void;
}) => [
  column.accessor('name', { header: 'Name', meta: { card: 'title' }, cell: NameCell }),
  column.accessor('discoverable', {
    header: 'Kind',
    cell: ({ getValue }) =>
      getValue() ? (
        <Tooltip label="Signs in without a password, too">
          <Badge variant="light" color="green" size="sm">
            Passkey
          </Badge>
        </Tooltip>
      ) : (
        <Badge variant="light" color="gray" size="sm">
          Security key
        </Badge>
      ),
  }),
  column.accessor('createdAt', {
    header: 'Added',
    cell: ({ getValue }) => (
      <Text size="sm" title={formatDateTime(getValue())}>
        {formatDate(getValue())}
      </Text>
    ),
  }),
  column.accessor('lastUsedAt', {
    header: 'Last used',
    cell: ({ getValue }) => {
      const used = getValue();
      return used ? (
        <Text size="sm">{formatDateTime(used)}</Text>
      ) : (
        <Text size="sm" c="dimmed">
          Never
        </Text>
      );
    },
  }),
  column.display({
    id: 'actions',
    header: () => <VisuallyHidden>Actions</VisuallyHidden>,
    meta: { width: 96, align: 'right', card: 'action' },
    cell: ({ row }) => (
      <Group gap={4} wrap="nowrap" justify="flex-end">
        <Tooltip label="Rename">
          <ActionIcon
            variant="subtle"
            aria-label={`Rename ${row.original.name}`}
            onClick={() => actions.onRename(row.original)}
          >
            <IconPencil size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
        <Tooltip label="Remove">
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={`Remove ${row.original.name}`}
            onClick={() => actions.onRemove(row.original)}
          >
            <IconTrash size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
      </Group>
    ),
  }),
];
