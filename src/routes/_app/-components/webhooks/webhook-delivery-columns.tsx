import { Badge, Stack, Text } from '@mantine/core';
import type { WebhookDelivery } from '../../../../api/contract/webhooks';
import { createAppColumnHelper } from '../../../../components/data-table/table-hook';
import { formatDate, formatTimeOfDay } from '../../../../components/date-format';

const column = createAppColumnHelper<WebhookDelivery>();

const outcomeLooks: Record<WebhookDelivery['outcome'], { label: string; color: string }> = {
  succeeded: { label: 'Succeeded', color: 'green' },
  retrying: { label: 'Retrying', color: 'yellow' },
  failed: { label: 'Failed', color: 'red' },
};

const none = (
  <Text size="sm" c="dimmed">
    —
  </Text>
);

/** One attempt a row: when, which event, how the receiver answered. */
export const webhookDeliveryColumns = [
  column.accessor('at', {
    header: 'Time',
    meta: { card: 'title' },
    // The moment to the second on one line, the day under it: narrow enough for a drawer.
    cell: ({ getValue }) => (
      <Stack gap={0}>
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatTimeOfDay(getValue())}
        </Text>
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {formatDate(getValue())}
        </Text>
      </Stack>
    ),
  }),
  column.accessor('eventId', {
    header: 'Event',
    cell: ({ row }) =>
      // A test event's id is 0, which no real event has.
      row.original.eventId === 0 ? (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          Test event
        </Text>
      ) : (
        <Stack gap={0}>
          <Text size="sm">{row.original.action}</Text>
          <Text size="xs" c="dimmed">
            #{row.original.eventId}
          </Text>
        </Stack>
      ),
  }),
  column.accessor('attempt', {
    header: 'Attempt',
    meta: { align: 'right' },
    cell: ({ getValue }) => <Text size="sm">{getValue()}</Text>,
  }),
  column.accessor('statusCode', {
    header: 'Status',
    meta: { align: 'right' },
    cell: ({ getValue }) => {
      const code = getValue();
      return code === null ? none : <Text size="sm">{code}</Text>;
    },
  }),
  column.accessor('latencyMs', {
    header: 'Latency',
    meta: { align: 'right' },
    cell: ({ getValue }) => {
      const ms = getValue();
      return ms === null ? (
        none
      ) : (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {ms} ms
        </Text>
      );
    },
  }),
  column.accessor('outcome', {
    header: 'Outcome',
    meta: { card: 'status' },
    cell: ({ getValue }) => {
      const { label, color } = outcomeLooks[getValue()];
      return (
        <Badge color={color} variant="light" size="sm" miw="max-content">
          {label}
        </Badge>
      );
    },
  }),
  column.accessor('error', {
    header: 'Error',
    cell: ({ getValue }) => {
      const error = getValue();
      return error ? (
        <Text size="xs" c="red.8" style={{ overflowWrap: 'anywhere' }}>
          {error}
        </Text>
      ) : (
        none
      );
    },
  }),
];
