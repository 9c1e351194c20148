import { useQuery } from '@tanstack/react-query';
import { DataTable } from '../../../../../components/data-table/data-table';
import { networkErrorLeads } from '../../../../../components/error-text';
import { networkQueries } from '../../../../../queries/networks';
import { interfaceColumns } from './interface-columns';

const columns = interfaceColumns();

/**
 * The VM details page's interfaces: what the VM is connected to, read-only. The page's Refresh
 * reloads it.
 */
export function VmInterfacesList({ vmId }: { vmId: number }) {
  const adapters = useQuery(networkQueries.adapters(vmId));
  return (
    <DataTable
      title="Network Interfaces"
      columns={columns}
      data={adapters.data}
      getRowId={(row) => String(row.id)}
      emptyMessage="No network interfaces have been found"
      isPending={adapters.isPending}
      isFetching={adapters.isFetching}
      error={adapters.data ? null : adapters.error}
      errorTitle={networkErrorLeads.fetchNetAdapters}
    />
  );
}
