import { Badge, Group, Loader, Stack, Text } from '@mantine/core';
import { PRIMARY_VMNIC, type NetworkAdapter } from '../../../../../api/contract/networks';
import { createAppColumnHelper } from '../../../../../components/data-table/table-hook';

const column = createAppColumnHelper<NetworkAdapter>();

/** An address, or a dash when there is none. */
function Address({ value }: { value: string | null }) {
  return value ? (
    <Text size="sm" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
      {value}
    </Text>
  ) : (
    <Text size="sm" c="dimmed">
      -
    </Text>
  );
}

const statusColors = { Attaching: 'blue', Detaching: 'blue', Error: 'red' } as const;

function VmnicCell({ adapter }: { adapter: NetworkAdapter }) {
  const badge =
    adapter.status === 'Active' ? null : (
      <Badge
        size="xs"
        variant="light"
        color={statusColors[adapter.status]}
        miw="max-content"
        leftSection={
          adapter.status === 'Error' ? null : <Loader size={8} color="blue" aria-hidden />
        }
      >
        {adapter.status}
      </Badge>
    );
  return (
    <Stack gap={2} align="flex-start">
      <Text size="sm" fw={500} style={{ whiteSpace: 'nowrap' }}>
        vmnic {adapter.vmnic}
      </Text>
      {adapter.vmnic === PRIMARY_VMNIC && (
        <Badge size="xs" variant="outline" color="gray" miw="max-content">
          Primary
        </Badge>
      )}
      {badge}
    </Stack>
  );
}

/** What the public IP of an interface is doing while the screen waits for an operation on it. */
export type PublicIpProgress = 'allocating' | 'releasing';

/** Spec section 4: either none ('Not Configured') or an address with translation ('NAT Enabled'). */
export function PublicIpCell({
  publicIp,
  progress,
}: {
  publicIp: string | null;
  progress?: PublicIpProgress;
}) {
  if (progress) {
    return (
      <Group gap={6} wrap="nowrap">
        <Loader size={12} aria-hidden />
        <Text size="sm" c="dimmed">
          {progress === 'allocating' ? 'Allocating...' : 'Releasing...'}
        </Text>
      </Group>
    );
  }
  if (!publicIp) {
    return (
      <Text size="sm" c="dimmed">
        Not Configured
      </Text>
    );
  }
  return (
    <Stack gap={2} align="flex-start">
      <Text size="sm" ff="monospace">
        {publicIp}
      </Text>
      <Badge size="xs" variant="light" color="green" style={{ flexShrink: 0 }}>
        NAT Enabled
      </Badge>
    </Stack>
  );
}

/**
 * The columns of a VM's interfaces (spec section 2, VM details and VM edit): vmnic, network,
 * CIDR, gateway, private IP, MAC and public IP. `progress` marks public IPs being changed.
 */
export const interfaceColumns = (progress: ReadonlyMap<number, PublicIpProgress> = new Map()) => [
  column.accessor('vmnic', {
    header: 'vmnic',
    cell: ({ row }) => <VmnicCell adapter={row.original} />,
  }),
  column.accessor('networkName', {
    header: 'Network',
    meta: { card: 'title' },
    cell: ({ row }) => (
      <Stack gap={2}>
        <Text size="sm" fw={500}>
          {row.original.networkName}
        </Text>
        {/* What went wrong with the interface's last operation. */}
        {row.original.statusMessage && (
          <Text size="xs" c="red" maw={240}>
            {row.original.statusMessage}
          </Text>
        )}
      </Stack>
    ),
  }),
  column.accessor('cidrBlock', {
    header: 'CIDR',
    cell: ({ getValue }) => <Address value={getValue()} />,
  }),
  column.accessor('gatewayIp', {
    header: 'Gateway',
    cell: ({ getValue }) => <Address value={getValue()} />,
  }),
  column.accessor('privateIp', {
    header: 'Private IP',
    cell: ({ getValue }) => <Address value={getValue()} />,
  }),
  column.accessor('macAddress', {
    header: 'MAC',
    cell: ({ getValue }) => <Address value={getValue()} />,
  }),
  column.accessor('publicIp', {
    header: 'Public IP',
    cell: ({ row }) => (
      <PublicIpCell publicIp={row.original.publicIp} progress={progress.get(row.original.id)} />
    ),
  }),
];
