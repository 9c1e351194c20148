import { ActionIcon, Badge, Group, Stack, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconHistory, IconSend, IconTrash } from '@tabler/icons-react';
import type { MouseEvent } from 'react';
import type { Webhook } from '../../../../api/contract/webhooks';
import { createAppColumnHelper } from '../../../../components/data-table/table-hook';
import { formatDate, formatDateTime } from '../../../../components/date-format';
import { eventTypesLabel } from './webhook-event-types';
import { webhookScopeLabels, webhookTexts } from './webhook-labels';

const column = createAppColumnHelper<Webhook>();

export interface WebhookRowActions {
  onTest: (webhook: Webhook) => void;
  onShowLog: (webhook: Webhook) => void;
  onDelete: (webhook: Webhook) => void;
  /** The webhook whose test request is on its way, if any. */
  testingId: number | undefined;
  /** Whose events each sends (a reseller's staff: their own company's or all customers'). */
  showScope?: boolean;
}

// The row opens the delivery log; its buttons must not.
const only = (action: () => void) => (event: MouseEvent) => {
  event.stopPropagation();
  action();
};

/** The company's webhooks: where each sends what, and whether it still does. */
export const webhookColumns = ({
  onTest,
  onShowLog,
  onDelete,
  testingId,
  showScope = false,
}: WebhookRowActions) => [
  column.accessor('url', {
    header: 'URL',
    meta: { card: 'title' },
    // Wide enough to read in a narrow table, broken anywhere; a phone's stacked row gives it the
    // line's width instead.
    cell: ({ getValue }) => (
      <Text size="sm" fw={500} miw={{ base: 0, xs: 200 }} style={{ overflowWrap: 'anywhere' }}>
        {getValue()}
      </Text>
    ),
  }),
  ...(showScope
    ? [
        column.accessor('scope', {
          header: 'Events of',
          cell: ({ getValue }) => (
            <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
              {webhookScopeLabels[getValue()]}
            </Text>
          ),
        }),
      ]
    : []),
  column.accessor('events', {
    header: 'Event types',
    cell: ({ getValue }) => <EventTypesCell events={getValue()} />,
  }),
  column.accessor('createdAt', {
    header: 'Created',
    cell: ({ getValue }) => (
      <Text size="sm" title={formatDateTime(getValue())} style={{ whiteSpace: 'nowrap' }}>
        {formatDate(getValue())}
      </Text>
    ),
  }),
  column.accessor('disabledAt', {
    id: 'state',
    header: 'State',
    meta: { card: 'status' },
    cell: ({ row }) => <StateCell webhook={row.original} />,
  }),
  column.accessor('lastEventId', {
    header: 'Last event',
    cell: ({ getValue }) =>
      getValue() === 0 ? (
        <Text size="sm" c="dimmed">
          None yet
        </Text>
      ) : (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          #{getValue()}
        </Text>
      ),
  }),
  column.display({
    id: 'actions',
    header: () => <VisuallyHidden>Actions</VisuallyHidden>,
    meta: { width: 128, align: 'right', card: 'action' },
    cell: ({ row }) => {
      const webhook = row.original;
      return (
        <Group gap={4} wrap="nowrap" justify="flex-end">
          <Tooltip
            label={webhook.disabledAt ? 'A disabled webhook sends nothing' : webhookTexts.sendTest}
          >
            <ActionIcon
              variant="subtle"
              aria-label={`${webhookTexts.sendTest} to ${webhook.url}`}
              disabled={webhook.disabledAt !== null}
              loading={testingId === webhook.id}
              onClick={only(() => onTest(webhook))}
            >
              <IconSend size={18} aria-hidden />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Delivery log">
            <ActionIcon
              variant="subtle"
              color="gray"
              aria-label={`Delivery log of ${webhook.url}`}
              onClick={only(() => onShowLog(webhook))}
            >
              <IconHistory size={18} aria-hidden />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Delete">
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={`Delete ${webhook.url}`}
              onClick={only(() => onDelete(webhook))}
            >
              <IconTrash size={18} aria-hidden />
            </ActionIcon>
          </Tooltip>
        </Group>
      );
    },
  }),
];

// A long list of types is cut to a few; all of them are in the title.
const SHOWN_TYPES = 3;

function EventTypesCell({ events }: { events: readonly string[] }) {
  const label = eventTypesLabel(events);
  const shown = events.length > SHOWN_TYPES ? events.slice(0, SHOWN_TYPES) : events;
  return (
    <Text size="sm" title={label} miw={120}>
      {eventTypesLabel(shown)}
      {shown.length < events.length && (
        <Text span size="sm" c="dimmed">
          {` and ${events.length - shown.length} more`}
        </Text>
      )}
    </Text>
  );
}

/** Active, or Disabled with when and why (a day of failed deliveries). */
export function StateCell({ webhook }: { webhook: Webhook }) {
  if (!webhook.disabledAt)
    return (
      <Badge color="green" variant="light" size="sm" miw="max-content">
        Active
      </Badge>
    );
  return (
    <Stack gap={2} align="flex-start">
      <Badge color="red" variant="light" size="sm" miw="max-content">
        Disabled
      </Badge>
      <Text size="xs" c="dimmed">
        Since {formatDateTime(webhook.disabledAt)}
      </Text>
      {webhook.disabledReason && (
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {webhook.disabledReason}
        </Text>
      )}
    </Stack>
  );
}
