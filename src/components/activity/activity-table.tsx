import { Badge, Stack, Text } from '@mantine/core';
import type { ActivityEvent } from '../../api/contract/activity';
import { DataTable } from '../data-table/data-table';
import { createAppColumnHelper } from '../data-table/table-hook';
import { formatDateTime } from '../date-format';
import { describeEvent, outcomeLabels } from './activity-text';

const column = createAppColumnHelper<ActivityEvent>();

const outcomeColors = {
  requested: 'blue',
  succeeded: 'green',
  failed: 'red',
  observed: 'gray',
} as const;

const subjectTypes = {
  vm: 'VM',
  network: 'Network',
  user: 'User',
  team: 'Team',
  session: 'Sign-in',
  apiToken: 'API token',
  webhook: 'Webhook',
  company: 'Company',
} as const;

const whenColumn = column.accessor('occurredAt', {
  header: 'When',
  meta: { width: 180 },
  cell: ({ getValue }) => (
    <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
      {formatDateTime(getValue())}
    </Text>
  ),
});
const subjectColumn = column.accessor((event) => event.subject.name, {
  id: 'subject',
  header: 'Resource',
  enableSorting: false,
  meta: { card: 'title' },
  cell: ({ row }) => (
    <Text size="sm">
      {row.original.subject.name}{' '}
      <Text span size="xs" c="dimmed">
        {subjectTypes[row.original.subject.type]}
      </Text>
    </Text>
  ),
});
const whatColumns = [
  column.accessor((event) => event.actor.name, {
    id: 'actor',
    header: 'Who',
    enableSorting: false,
  }),
  column.accessor((event) => describeEvent(event), {
    id: 'what',
    header: 'What',
    enableSorting: false,
  }),
  column.accessor('outcome', {
    header: 'Outcome',
    enableSorting: false,
    meta: { card: 'status' },
    cell: ({ row }) => {
      const { outcome, detail } = row.original;
      return (
        <Stack gap={2} align="flex-start">
          <Badge color={outcomeColors[outcome]} variant="light" radius="sm" tt="none">
            {outcomeLabels[outcome]}
          </Badge>
          {outcome === 'failed' && typeof detail.reason === 'string' && (
            <Text size="xs" c="red.8">
              {detail.reason}
            </Text>
          )}
        </Stack>
      );
    },
  }),
];

export const subjectActivityColumns = [whenColumn, ...whatColumns];
export const companyActivityColumns = [whenColumn, subjectColumn, ...whatColumns];

type ActivityTableProps = Omit<
  Parameters<typeof DataTable<ActivityEvent>>[0],
  'columns' | 'getRowId' | 'emptyMessage'
> & { withSubject?: boolean };

/** A page of history, newest first: when, (what on,) who, what, and how it ended. */
export function ActivityTable({ withSubject = false, ...props }: ActivityTableProps) {
  return (
    <DataTable
      {...props}
      columns={withSubject ? companyActivityColumns : subjectActivityColumns}
      getRowId={(event) => String(event.id)}
      emptyMessage="No activity yet"
    />
  );
}
