import { Text, VisuallyHidden } from '@mantine/core';
import type { NetworkRow } from '../../../../api/contract/networks';
import { ButtonLink } from '../../../../components/button-link';
import { createAppColumnHelper } from '../../../../components/data-table/table-hook';
import { NameCell } from '../../../../components/data-table/cells';

const column = createAppColumnHelper<NetworkRow>();

/** Network Name, CIDR Block, Region, CONNECTED VMs (each sorts on the server) and Details. */
export const networkColumns = [
  column.accessor('name', {
    header: 'Network Name',
    meta: { width: '28%', card: 'title' },
    cell: NameCell,
  }),
  column.accessor('cidrBlock', {
    header: 'CIDR Block',
    meta: { width: '20%' },
    cell: ({ getValue }) => (
      <Text size="sm" ff="monospace">
        {getValue()}
      </Text>
    ),
  }),
  column.accessor('region', { header: 'Region', meta: { width: '22%' } }),
  column.accessor('connectedVms', {
    header: 'CONNECTED VMs',
    // Like every other column: ascending first (the table would start numbers descending).
    sortDescFirst: false,
    meta: { width: '18%' },
  }),
  column.display({
    id: 'actions',
    header: () => <VisuallyHidden>Actions</VisuallyHidden>,
    meta: { width: '12%', align: 'right', card: 'action' },
    cell: ({ row }) => (
      <ButtonLink
        to="/networks/$networkId"
        params={{ networkId: row.original.id }}
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
