import { Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import {
  sizeKeys,
  type Configuration,
  type DashboardData,
  type SizeKey,
} from '../../../../api/contract/vms';
import { DataTable } from '../../../../components/data-table/data-table';
import { createAppColumnHelper } from '../../../../components/data-table/table-hook';
import { dashboardErrorLeads, vmErrorLeads } from '../../../../components/error-text';
import { dashboardQueries } from '../../../../queries/dashboard';
import { catalogQueries } from '../../../../queries/vms';

/** One size of the catalogue with its usage; a count is undefined when the server sent none. */
export interface UsageRow {
  key: SizeKey;
  name: string;
  configuration: string;
  currentMonth: number | undefined;
  previousMonth: number | undefined;
  ytd: number | undefined;
}

export const configurationText = ({
  cpu,
  ram,
  disk,
}: Pick<Configuration, 'cpu' | 'ram' | 'disk'>) =>
  `CPU: ${cpu} Cores - RAM: ${ram} GB - Disk: ${disk} GB`;

/** The catalogue's sizes in size order, each with its counts. */
export function usageRows(
  configurations: readonly Configuration[],
  usage: DashboardData,
): UsageRow[] {
  return [...configurations]
    .sort((a, b) => sizeKeys.indexOf(a.key) - sizeKeys.indexOf(b.key))
    .map((size) => ({
      key: size.key,
      name: size.name,
      configuration: configurationText(size),
      currentMonth: usage.currentMonth[size.key],
      previousMonth: usage.previousMonth[size.key],
      ytd: usage.ytd[size.key],
    }));
}

/** Spec section 2: a zero or missing usage value shows as a dash. */
function CountCell({ getValue }: { getValue: () => number | undefined }) {
  const value = getValue();
  return value ? (
    <Text size="sm" fw={500}>
      {value.toLocaleString('en-US')}
    </Text>
  ) : (
    <Text size="sm" c="dimmed">
      -
    </Text>
  );
}

const column = createAppColumnHelper<UsageRow>();
const countMeta = { width: '14%', align: 'right' } as const;
const columns = [
  column.accessor('name', {
    header: 'VM Size',
    meta: { width: '18%', card: 'title' },
    cell: ({ getValue }) => (
      <Text size="sm" fw={600}>
        {getValue()}
      </Text>
    ),
  }),
  column.accessor('configuration', {
    header: 'Configuration',
    cell: ({ getValue }) => (
      <Text size="sm" c="dimmed">
        {getValue()}
      </Text>
    ),
  }),
  column.accessor('currentMonth', { header: 'Current Month', meta: countMeta, cell: CountCell }),
  column.accessor('previousMonth', { header: 'Previous Month', meta: countMeta, cell: CountCell }),
  column.accessor('ytd', { header: 'Year To Date', meta: countMeta, cell: CountCell }),
];

interface VmUsageTableProps {
  /** The committed search (the URL's): a case-insensitive match on the size name. */
  search: string;
  onSearchChange: (search: string) => void;
}

/**
 * The Dashboard's VM Usage tab: how many VMs of each size the company had this month, last month
 * and this year. Six sizes at most, so the search filters here rather than on the server.
 */
export function VmUsageTable({ search, onSearchChange }: VmUsageTableProps) {
  const usage = useQuery(dashboardQueries.usage());
  const configurations = useQuery(catalogQueries.configurations());

  const rows = useMemo(() => {
    if (!usage.data || !configurations.data) return undefined;
    const needle = search.trim().toLowerCase();
    return usageRows(configurations.data, usage.data).filter((row) =>
      row.name.toLowerCase().includes(needle),
    );
  }, [usage.data, configurations.data, search]);

  // A failed refresh of figures already shown is toasted by the query cache; keep the figures.
  const usageError = usage.data ? null : usage.error;
  const configurationsError = configurations.data ? null : configurations.error;

  return (
    <DataTable<UsageRow>
      title="Usage by VM size"
      description="Virtual machines of each size that existed in the period"
      columns={columns}
      data={rows}
      getRowId={(row) => row.key}
      search={search}
      onSearchChange={onSearchChange}
      searchPlaceholder="Search VM sizes..."
      emptyMessage="No VM usage data available"
      isPending={usage.isPending || configurations.isPending}
      isFetching={usage.isFetching || configurations.isFetching}
      error={usageError ?? configurationsError}
      errorTitle={
        usageError ? dashboardErrorLeads.fetchDashboard : vmErrorLeads.fetchConfigurations
      }
      onRefresh={() => {
        void usage.refetch();
        void configurations.refetch();
      }}
    />
  );
}
