import { Button, Text } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { LimitUse } from '../../../../api/contract/limits';
import type { CustomerDetails } from '../../../../api/contract/reseller';
import { DataTable } from '../../../../components/data-table/data-table';
import { createAppColumnHelper } from '../../../../components/data-table/table-hook';
import { catalogQueries } from '../../../../queries/vms';
import { CustomerLimitsForm } from './customer-limits-form';
import { ALL_REGIONS_LABEL, resourceLabels } from './limit-form-values';

const column = createAppColumnHelper<LimitUse>();

const limitColumns = (regionName: (regionId: number) => string) => [
  column.accessor('resource', {
    header: 'Resource',
    meta: { width: '25%', card: 'title' },
    cell: ({ getValue }) => resourceLabels[getValue()],
  }),
  column.accessor('regionId', {
    header: 'Region',
    meta: { width: '35%' },
    cell: ({ getValue }) => {
      const regionId = getValue();
      return regionId === null ? ALL_REGIONS_LABEL : regionName(regionId);
    },
  }),
  column.accessor('max', { header: 'Max' }),
  column.accessor('used', {
    header: 'Used',
    // Above a limit lowered after the fact: the company keeps what it has but may add none.
    cell: ({ getValue, row }) =>
      getValue() > row.original.max ? (
        <Text span size="sm" c="red" title="Above the limit">
          {getValue()}
        </Text>
      ) : (
        getValue()
      ),
  }),
];

/** What the customer may hold, with what it holds now, and the form that changes it. */
export function CustomerLimitsCard({ customer }: { customer: CustomerDetails }) {
  const [editing, setEditing] = useState(false);
  // Names for the regions the limits name (and, while editing, the regions to choose from).
  const regions = useQuery({
    ...catalogQueries.combinedRegions(),
    enabled: customer.limits.some((limit) => limit.regionId !== null),
  });
  const columns = useMemo(() => {
    const names = new Map(regions.data?.map((region) => [region.id, region.countryRegion]));
    return limitColumns((regionId) => names.get(regionId) ?? `Region ${regionId}`);
  }, [regions.data]);

  if (editing) {
    return (
      <CustomerLimitsForm
        customerId={customer.id}
        limits={customer.limits}
        onDone={() => setEditing(false)}
      />
    );
  }

  return (
    <DataTable
      title="Limits"
      description="What the company may hold, in one region or in all regions together"
      columns={columns}
      data={customer.limits}
      getRowId={(row) => `${row.resource}/${row.regionId ?? 'all'}`}
      emptyMessage="No limits: the company is bound only by your own limits and the operator's quotas"
      toolbar={
        <Button
          variant="default"
          leftSection={<IconPencil size={16} aria-hidden />}
          onClick={() => setEditing(true)}
        >
          Edit limits
        </Button>
      }
    />
  );
}
