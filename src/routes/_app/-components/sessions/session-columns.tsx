import { Badge, Button, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import { IconDeviceDesktop, IconDeviceMobile, IconDeviceTablet } from '@tabler/icons-react';
import type { UserSession } from '../../../../api/contract/sessions';
import { createAppColumnHelper } from '../../../../components/data-table/table-hook';
import { formatDateTime } from '../../../../components/date-format';
import { secondFactorLabels, sessionLabel } from './session-labels';

const column = createAppColumnHelper<UserSession>();

const deviceIcons = { mobile: IconDeviceMobile, tablet: IconDeviceTablet };

/** The columns of the user's own sessions; this one is marked and has no Sign out of its own. */
export const sessionColumns = (onSignOut: (session: UserSession) => void) => [
  column.display({
    id: 'browser',
    header: 'Browser',
    meta: { card: 'title' },
    cell: ({ row }) => <BrowserCell session={row.original} />,
  }),
  column.accessor('address', {
    header: 'Address',
    cell: ({ getValue }) => <Text size="sm">{getValue() ?? 'Unknown'}</Text>,
  }),
  column.accessor('signedInAt', {
    header: 'Signed in',
    cell: ({ row }) => (
      <Stack gap={0}>
        <Text size="sm">{formatDateTime(row.original.signedInAt)}</Text>
        {row.original.secondFactor && (
          <Text size="xs" c="dimmed">
            {secondFactorLabels[row.original.secondFactor] ?? row.original.secondFactor}
          </Text>
        )}
      </Stack>
    ),
  }),
  column.accessor('lastSeenAt', {
    header: 'Last seen',
    cell: ({ row }) =>
      row.original.current ? (
        <Text size="sm">Now</Text>
      ) : (
        <Text size="sm">{formatDateTime(row.original.lastSeenAt)}</Text>
      ),
  }),
  column.display({
    id: 'actions',
    header: () => <VisuallyHidden>Actions</VisuallyHidden>,
    meta: { align: 'right', card: 'action' },
    cell: ({ row }) =>
      row.original.current ? null : (
        <Button
          size="xs"
          variant="subtle"
          color="red"
          aria-label={`Sign out ${sessionLabel(row.original)}`}
          onClick={() => onSignOut(row.original)}
        >
          Sign out
        </Button>
      ),
  }),
];

function BrowserCell({ session }: { session: UserSession }) {
  const Icon = deviceIcons[session.device as keyof typeof deviceIcons] ?? IconDeviceDesktop;
  return (
    <Group gap="xs" wrap="nowrap">
      <Icon size={18} aria-hidden />
      <Text size="sm" fw={500} title={session.userAgent ?? undefined}>
        {sessionLabel(session)}
      </Text>
      {session.current && (
        <Badge size="sm" variant="light" color="green">
          This session
        </Badge>
      )}
    </Group>
  );
}
