import { dashboardSummaryResponse } from './contract/dashboard';
import { request } from './client';

/** The Dashboard's figures, over what the caller may see (the VM usage is `getDashboardData`). */
export const getDashboardSummary = () =>
  request('get', 'dashboard/summary', dashboardSummaryResponse).then((r) => r.data);
