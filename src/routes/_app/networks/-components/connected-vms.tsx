import { Text, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import type { ConnectedVm } from '../../../../api/contract/networks';
import { ButtonLink } from '../../../../components/button-link';
import { DataTable } from '../../../../components/data-table/data-table';
import { createAppColumnHelper } from '../../../../components/data-table/table-hook';
import { networkErrorLeads } from '../../../../components/error-text';
import { networkQueries } from '../../../../queries/networks';
import { NameCell } from '../../../../components/data-table/cells';

const column = createAppColumnHelper<ConnectedVm>();

const columns = [
  column.accessor('name', {
    header: 'VM Name',
    meta: { width: '50%', card: 'title' },
    cell: NameCell,
  }),
  column.accessor('privateIp', {
    header: 'Private IP',
    cell: ({ getValue }) => (
      <Text size="sm" ff="monospace">
        {getValue() ?? '-'}
      </Text>
    ),
  }),
  column.display({
    id: 'actions',
    header: () => <VisuallyHidden>Actions</VisuallyHidden>,
    meta: { width: 100, align: 'right', card: 'action' },
    cell: ({ row }) => (
      <ButtonLink
        to="/virtualMachineDetails/$virtualMachineId"
        params={{ virtualMachineId: row.original.id }}
        size="xs"
        variant="light"
        aria-label={`Details of ${row.original.name}`}
        onClick={(event) => event.stopPropagation()}
      >
        Details
      </ButtonLink>
    ),
  }),
];

/** The VMs with an interface on the network; a row opens the VM. */
export function ConnectedVms({ networkId }: { networkId: number }) {
  const navigate = useNavigate();
  const vms = useQuery(networkQueries.vms(networkId));
  return (
    <DataTable
      title="Connected VMs"
      columns={columns}
      data={vms.data}
      getRowId={(row) => String(row.id)}
      emptyMessage="No VMs are connected to this network"
      isPending={vms.isPending}
      isFetching={vms.isFetching}
      error={vms.data ? null : vms.error}
      errorTitle={networkErrorLeads.fetchNetworkVms}
      onRefresh={() => void vms.refetch()}
      onRowClick={(row) =>
        void navigate({
          to: '/virtualMachineDetails/$virtualMachineId',
          params: { virtualMachineId: row.id },
        })
      }
    />
  );
}
