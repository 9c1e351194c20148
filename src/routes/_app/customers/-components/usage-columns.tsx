import { Badge, Group, Text } from '@mantine/core';
import type {
  PublicIpUsagePeriod,
  SnapshotUsagePeriod,
  VmUsagePeriod,
} from '../../../../api/contract/usage';
import { createAppColumnHelper } from '../../../../components/data-table/table-hook';
import { formatHours } from './customer-texts';

let rangeFormat: Intl.DateTimeFormat | undefined;

/**
 * "Nov 1, 00:00 – Nov 14, 09:30", or "Nov 3, 09:00 – 17:00" within a day: in UTC, as the month
 * is counted, so that a period starts at the month's midnight and not the evening before.
 */
export const formatPeriod = ({ from, to }: { from: Date; to: Date }) =>
  (rangeFormat ??= new Intl.DateTimeFormat(undefined, {
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: 'UTC',
  })).formatRange(from, to);

/** A number of hours, right-aligned with its column's others. */
function HoursCell({ getValue }: { getValue: () => number }) {
  return (
    <Text span size="sm" style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
      {formatHours(getValue(), 2)}
    </Text>
  );
}

function PeriodCell({ period }: { period: { from: Date; to: Date } }) {
  return (
    <Text span size="sm" style={{ whiteSpace: 'nowrap' }}>
      {formatPeriod(period)}
    </Text>
  );
}

const hours = { enableSorting: false, meta: { align: 'right' }, cell: HoursCell } as const;

/** A VM's name, and whether it has been deleted since. */
function VmNameCell({ row }: { row: { vmName: string; vmDeleted: boolean } }) {
  return (
    <Group gap={6} wrap="wrap">
      <Text span size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
        {row.vmName}
      </Text>
      {row.vmDeleted && (
        <Badge color="gray" variant="light" radius="sm" tt="none">
          Deleted
        </Badge>
      )}
    </Group>
  );
}

const vm = createAppColumnHelper<VmUsagePeriod>();

/** One row per VM and size: a resize ends one row and starts the next. */
export const vmUsageColumns = [
  vm.accessor('vmName', {
    header: 'VM',
    meta: { card: 'title' },
    cell: ({ row }) => <VmNameCell row={row.original} />,
  }),
  vm.accessor('size', { header: 'Size' }),
  vm.accessor('region', { header: 'Region' }),
  vm.accessor('from', {
    id: 'period',
    header: 'From – to (UTC)',
    cell: ({ row }) => <PeriodCell period={row.original} />,
  }),
  vm.accessor('existedHours', { header: 'Existed (h)', ...hours }),
  vm.accessor('ranHours', { header: 'Ran (h)', ...hours }),
];

/** One row per public address and the time it was held. */
export const publicIpUsageColumns = (vmNames: ReadonlyMap<number, string>) => {
  const ip = createAppColumnHelper<PublicIpUsagePeriod>();
  return [
    ip.accessor('address', { header: 'Address', meta: { card: 'title' } }),
    ip.accessor('region', { header: 'Region' }),
    ip.accessor((row) => servedBy(row, vmNames), { id: 'servedBy', header: 'Used by' }),
    ip.accessor('from', {
      id: 'period',
      header: 'From – to (UTC)',
      cell: ({ row }) => <PeriodCell period={row.original} />,
    }),
    ip.accessor('hours', { header: 'Hours', ...hours }),
  ];
};

/** The VM it was attached to (by name when the month's rows know it), or its network's way out. */
function servedBy(row: PublicIpUsagePeriod, vmNames: ReadonlyMap<number, string>) {
  if (row.vmId !== null) return vmNames.get(row.vmId) ?? `VM ${row.vmId}`;
  if (row.networkId !== null) return `Network ${row.networkId} (outbound)`;
  return '—';
}

const snapshot = createAppColumnHelper<SnapshotUsagePeriod>();

/** One row per snapshot and the time it was held, at its size. */
export const snapshotUsageColumns = [
  snapshot.accessor('snapshotName', {
    header: 'Snapshot',
    meta: { card: 'title' },
    cell: ({ getValue }) => (
      <Text span size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
        {getValue()}
      </Text>
    ),
  }),
  snapshot.accessor('vmName', {
    header: 'VM',
    cell: ({ row }) => <VmNameCell row={row.original} />,
  }),
  snapshot.accessor('region', { header: 'Region' }),
  snapshot.accessor('sizeGb', { header: 'Size (GB)', ...hours }),
  snapshot.accessor('from', {
    id: 'period',
    header: 'From – to (UTC)',
    cell: ({ row }) => <PeriodCell period={row.original} />,
  }),
  snapshot.accessor('hours', { header: 'Hours', ...hours }),
  snapshot.accessor('gbHours', { header: 'GB-hours', ...hours }),
];
