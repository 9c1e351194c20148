import { Stack, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import type { VmRow } from '../../../../api/contract/vms';
import { ButtonLink } from '../../../../components/button-link';
import { createAppColumnHelper } from '../../../../components/data-table/table-hook';
import { formatDateTime, formatRecentDay } from '../../../../components/date-format';
import { StatusBadge } from '../../../../components/status-badge';
import { VmAddress } from '../../../../components/vm-address';

const column = createAppColumnHelper<VmRow>();

/**
 * The columns of every VM list (the VM list and a team's VMs): NAME, STATUS, SIZE, CORES,
 * RAM (GB), CREATED and the Details button, at the spec's widths. A column's id is the server's
 * sort column; CORES and RAM do not sort.
 */
export const vmColumns = [
  column.accessor('name', {
    header: 'NAME',
    meta: { width: '25%', card: 'title' },
    cell: ({ row }) => <VmNameCell vm={row.original} />,
  }),
  column.accessor('status', {
    header: 'STATUS',
    meta: { width: '12%', card: 'status' },
    cell: ({ getValue }) => <StatusBadge status={getValue()} />,
  }),
  column.accessor('configuration', { header: 'SIZE', meta: { width: '18%' } }),
  column.accessor('cpu', { header: 'CORES', enableSorting: false, meta: { width: '10%' } }),
  column.accessor('ram', { header: 'RAM (GB)', enableSorting: false, meta: { width: '10%' } }),
  column.accessor('createdAt', {
    header: 'CREATED',
    meta: { width: '15%' },
    cell: ({ getValue }) => <CreatedCell date={getValue()} />,
  }),
  column.display({
    id: 'actions',
    header: () => <VisuallyHidden>Actions</VisuallyHidden>,
    meta: { width: '10%', align: 'right', card: 'action' },
    cell: ({ row }) => (
      <ButtonLink
        to="/virtualMachineDetails/$virtualMachineId"
        params={{ virtualMachineId: row.original.id }}
        size="xs"
        variant="light"
        aria-label={`Details of ${row.original.name}`}
        // The row opens the same page; one navigation is enough.
        onClick={(event) => event.stopPropagation()}
      >
        Details
      </ButtonLink>
    ),
  }),
];

/** The name, and under it the address a customer reaches the VM at, with a copy button. */
function VmNameCell({ vm }: { vm: VmRow }) {
  return (
    <Stack gap={0} miw={0}>
      <Text size="sm" fw={500}>
        {vm.name}
      </Text>
      <VmAddress ip={vm.primaryIp} />
    </Stack>
  );
}

/** "Today, 14:05" or the day; the date and time on hover, so VMs made the same day differ. */
function CreatedCell({ date }: { date: Date }) {
  return (
    <Tooltip label={formatDateTime(date)} withArrow openDelay={200}>
      <Text span size="sm">
        {formatRecentDay(date)}
      </Text>
    </Tooltip>
  );
}
