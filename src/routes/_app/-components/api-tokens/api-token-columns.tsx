import { ActionIcon, Badge, Group, Stack, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import type { ApiToken } from '../../../../api/contract/api-tokens';
import { AnchorLink } from '../../../../components/anchor-link';
import { NameCell } from '../../../../components/data-table/cells';
import { createAppColumnHelper } from '../../../../components/data-table/table-hook';
import { formatDate, formatDateTime } from '../../../../components/date-format';
import { accessLabels, teamsLabel } from './api-token-labels';

const column = createAppColumnHelper<ApiToken>();

/**
 * The columns of a user's tokens; `now` decides which have expired. `withOwner` adds whose each
 * is, linked to their page (the company's tokens, for an Admin).
 */
export const apiTokenColumns = (
  now: Date,
  onRevoke: (token: ApiToken) => void,
  { withOwner = false }: { withOwner?: boolean } = {},
) => [
  ...(withOwner ? [ownerColumn] : []),
  column.accessor('name', { header: 'Name', meta: { card: 'title' }, cell: NameCell }),
  column.accessor('access', {
    header: 'Access',
    cell: ({ row }) => (
      <Stack gap={0}>
        <Text size="sm">{accessLabels[row.original.access]}</Text>
        <Text size="xs" c="dimmed">
          {teamsLabel(row.original.teams)}
        </Text>
      </Stack>
    ),
  }),
  column.accessor('createdAt', {
    header: 'Created',
    cell: ({ getValue }) => <Text size="sm">{formatDate(getValue())}</Text>,
  }),
  column.accessor('expiresAt', {
    header: 'Expires',
    cell: ({ getValue }) => <ExpiryCell expiresAt={getValue()} now={now} />,
  }),
  column.accessor('lastUsedAt', {
    header: 'Last used',
    cell: ({ row }) => <LastUsedCell token={row.original} />,
  }),
  column.display({
    id: 'actions',
    header: () => <VisuallyHidden>Actions</VisuallyHidden>,
    meta: { width: 56, align: 'right', card: 'action' },
    cell: ({ row }) => (
      <Tooltip label="Revoke">
        <ActionIcon
          variant="subtle"
          color="red"
          aria-label={`Revoke ${row.original.name}`}
          onClick={() => onRevoke(row.original)}
        >
          <IconTrash size={18} aria-hidden />
        </ActionIcon>
      </Tooltip>
    ),
  }),
];

const ownerColumn = column.accessor('user', {
  id: 'owner',
  header: 'Owner',
  cell: ({ getValue }) => {
    const owner = getValue();
    return (
      <Stack gap={0}>
        <AnchorLink to="/user" search={{ id: owner.id }} size="sm" fw={500}>
          {owner.name}
        </AnchorLink>
        <Text size="xs" c="dimmed">
          {owner.email}
        </Text>
      </Stack>
    );
  },
});

// The day only, so that the columns fit a phone; the moment is in the title.
function ExpiryCell({ expiresAt, now }: { expiresAt: Date; now: Date }) {
  if (expiresAt.getTime() > now.getTime())
    return (
      <Text size="sm" title={formatDateTime(expiresAt)}>
        {formatDate(expiresAt)}
      </Text>
    );
  return (
    <Group gap={6} wrap="nowrap">
      <Badge color="red" variant="light" size="sm">
        Expired
      </Badge>
      <Text size="sm" c="dimmed" title={formatDateTime(expiresAt)}>
        {formatDate(expiresAt)}
      </Text>
    </Group>
  );
}

function LastUsedCell({ token }: { token: ApiToken }) {
  if (!token.lastUsedAt)
    return (
      <Text size="sm" c="dimmed">
        Never
      </Text>
    );
  return (
    <Stack gap={0}>
      <Text size="sm">{formatDateTime(token.lastUsedAt)}</Text>
      {token.lastUsedFrom && (
        <Text size="xs" c="dimmed">
          from {token.lastUsedFrom}
        </Text>
      )}
    </Stack>
  );
}
