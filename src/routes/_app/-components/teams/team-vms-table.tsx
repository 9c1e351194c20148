import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import type { VmSortColumn } from '../../../../api/contract/vms';
import { pagedQueryProps } from '../../../../components/data-table/paged-query';
import { DataTable } from '../../../../components/data-table/data-table';
import { tableSearchProps, type TableSearch } from '../../../../components/data-table/table-search';
import { vmErrorLeads } from '../../../../components/error-text';
import { vmQueries } from '../../../../queries/vms';
import { vmListQuery } from '../vms/vm-search';
import { vmColumns } from '../vms/vm-table';

interface TeamVmsTableProps {
  teamId: number;
  state: TableSearch<VmSortColumn>;
  /** Writes the state back (to the URL, under the page's own names for it). */
  onStateChange: (patch: Partial<TableSearch<VmSortColumn>>, options: { replace: boolean }) => void;
}

/** The team page's table of the team's VMs: the VM list scoped to the team. */
export function TeamVmsTable({ teamId, state, onStateChange }: TeamVmsTableProps) {
  const navigate = useNavigate();
  const vms = useQuery(vmQueries.list(vmListQuery(state, { teamId })));
  return (
    <DataTable
      title="Virtual Machines"
      description="The virtual machines assigned to this team"
      columns={vmColumns}
      {...pagedQueryProps(vms)}
      getRowId={(row) => String(row.id)}
      {...tableSearchProps(state, onStateChange)}
      searchPlaceholder="Search virtual machines..."
      emptyMessage="No virtual machines found"
      errorTitle={vmErrorLeads.fetchVms}
      onRowClick={(row) =>
        void navigate({
          to: '/virtualMachineDetails/$virtualMachineId',
          params: { virtualMachineId: row.id },
        })
      }
    />
  );
}
