import { Center, Loader, Paper } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { sizeKeys, type DashboardData } from '../../../../api/contract/vms';
import { dashboardQueries } from '../../../../queries/dashboard';
import { VmUsageTable } from '../vms/vm-usage-table';
import { FirstVmPrompt } from './first-vm-prompt';

/** Any VM of any size in any period of the usage. */
const hasUsage = (usage: DashboardData) =>
  [usage.currentMonth, usage.previousMonth, usage.ytd].some((counts) =>
    sizeKeys.some((key) => (counts[key] ?? 0) > 0),
  );

/**
 * The VM Usage tab: the usage table, or, for a company with no VM now and none this year, the
 * prompt to create the first (a table of dashes says nothing). A failed figures call leaves the
 * table as it was.
 */
export function UsagePanel(props: Parameters<typeof VmUsageTable>[0]) {
  const summary = useQuery(dashboardQueries.summary());
  const usage = useQuery(dashboardQueries.usage());
  const unused = usage.data !== undefined && !hasUsage(usage.data);
  if (unused && summary.data?.vms.total === 0) return <FirstVmPrompt />;
  // Until the figures tell, an unused table is not drawn: it may well be the prompt.
  if (unused && summary.isPending)
    return (
      <Paper withBorder radius="md" shadow="xs">
        <Center py="xl">
          <Loader size="sm" aria-label="Loading data" />
        </Center>
      </Paper>
    );
  return <VmUsageTable {...props} />;
}
