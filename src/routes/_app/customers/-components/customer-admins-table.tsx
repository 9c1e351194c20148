import { Badge } from '@mantine/core';
import type { CustomerAdmin } from '../../../../api/contract/reseller';
import { DimmedCell, PersonCell } from '../../../../components/data-table/cells';
import { DataTable } from '../../../../components/data-table/data-table';
import { createAppColumnHelper } from '../../../../components/data-table/table-hook';

const column = createAppColumnHelper<CustomerAdmin>();

const adminColumns = [
  column.accessor('name', {
    header: 'Name',
    meta: { width: '40%', card: 'title' },
    cell: ({ getValue }) => <PersonCell name={getValue()} />,
  }),
  column.accessor('email', { header: 'Email', cell: DimmedCell }),
  column.accessor('activated', {
    header: 'Status',
    meta: { width: '15%', card: 'status' },
    // Invited: the activation e-mail has not been followed yet.
    cell: ({ getValue }) =>
      getValue() ? (
        <Badge component="span" color="green" variant="light" radius="sm" tt="none">
          Active
        </Badge>
      ) : (
        <Badge component="span" color="yellow" variant="light" radius="sm" tt="none">
          Invited
        </Badge>
      ),
  }),
];

/** The company's Admins (all of them: a company has a handful), activated or still invited. */
export function CustomerAdminsTable({
  admins,
  isFetching,
  onRefresh,
}: {
  admins: CustomerAdmin[];
  isFetching: boolean;
  onRefresh: () => void;
}) {
  return (
    <DataTable
      title="Admins"
      description="Who manages the company's console"
      columns={adminColumns}
      data={admins}
      getRowId={(row) => String(row.id)}
      isFetching={isFetching}
      onRefresh={onRefresh}
      emptyMessage="No admins"
    />
  );
}
