import { queryOptions } from '@tanstack/react-query';
import { getDashboardSummary } from '../api/dashboard';
import { getDashboardData } from '../api/vms';

/** VM mutations invalidate `['dashboard']` (spelled out in `vmMutations`): keep the root as is. */
export const dashboardKeys = {
  all: ['dashboard'] as const,
  usage: () => [...dashboardKeys.all, 'usage'] as const,
  summary: () => [...dashboardKeys.all, 'summary'] as const,
};

export const dashboardQueries = {
  /** VMs per size for the current month, the previous month and the year to date. */
  usage: () => queryOptions({ queryKey: dashboardKeys.usage(), queryFn: getDashboardData }),
  /** The figures above the tabs: VMs by status, networks, public IPs, this month's VM-hours. */
  summary: () => queryOptions({ queryKey: dashboardKeys.summary(), queryFn: getDashboardSummary }),
};
