import { Group, Text, Tooltip } from '@mantine/core';
import type { CustomerRow } from '../../../../api/contract/reseller';
import { createAppColumnHelper } from '../../../../components/data-table/table-hook';
import { formatDate, formatDateTime } from '../../../../components/date-format';
import { CustomerLogo } from './customer-logo';
import { CustomerStateBadge } from './customer-state-badge';
import { formatHours, vmsRunningOfTotal } from './customer-texts';

const column = createAppColumnHelper<CustomerRow>();

// Counts sort ascending first, like every other column (the table would start numbers descending).
const count = { sortDescFirst: false } as const;

/**
 * Name, Admins, Users, VMs, vCPUs, RAM (GB), Public IPs, VM-hours this month and Created. A
 * column's id is the server's sort column: name, users, vms (by the total) and createdAt sort;
 * the others do not.
 */
export const customerColumns = [
  column.accessor('name', {
    header: 'Name',
    meta: { width: '24%', card: 'title' },
    cell: ({ row }) => <CustomerNameCell customer={row.original} />,
  }),
  column.accessor('admins', { header: 'Admins', enableSorting: false }),
  column.accessor('users', { header: 'Users', ...count }),
  column.accessor(vmsRunningOfTotal, {
    id: 'vms',
    header: 'VMs',
    ...count,
    cell: ({ getValue }) => (
      <Text span size="sm" title="Running / total">
        {getValue()}
      </Text>
    ),
  }),
  column.accessor('vcpus', { header: 'vCPUs', enableSorting: false }),
  column.accessor('ramGb', { header: 'RAM (GB)', enableSorting: false }),
  column.accessor('publicIps', { header: 'Public IPs', enableSorting: false }),
  column.accessor('vmHoursThisMonth', {
    // "this month" under it, small and in lower case: the header on one line, or in capitals on
    // two, squeezed the names beside eight other columns on a desktop.
    header: () => (
      <>
        VM-hours{' '}
        <Text span display="block" fz="xs" fw={400} tt="none" c="dimmed" lts={0}>
          this month
        </Text>
      </>
    ),
    enableSorting: false,
    meta: { align: 'right', label: 'VM-hours this month' },
    cell: ({ getValue }) => (
      <Text span size="sm" style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
        {formatHours(getValue(), 1)}
      </Text>
    ),
  }),
  column.accessor('createdAt', {
    header: 'Created',
    meta: { width: '13%' },
    cell: ({ getValue }) => (
      <Tooltip label={formatDateTime(getValue())} withArrow openDelay={200}>
        <Text span size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatDate(getValue())}
        </Text>
      </Tooltip>
    ),
  }),
];

function CustomerNameCell({ customer }: { customer: CustomerRow }) {
  return (
    <Group gap="sm" wrap="nowrap">
      <CustomerLogo name={customer.name} logoUrl={customer.logoUrl} size={32} />
      {/* The badge goes under the name rather than squeeze it into a word a line. */}
      <Group gap={6} wrap="wrap" miw={0} style={{ flex: 1 }}>
        <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
          {customer.name}
        </Text>
        <CustomerStateBadge customer={customer} />
      </Group>
    </Group>
  );
}
