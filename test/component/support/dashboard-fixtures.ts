import type { DashboardSummary } from '../../../src/api/contract/dashboard';
import type { Configuration, DashboardData, SizeCounts } from '../../../src/api/contract/vms';
import { api, http, ok, server } from './msw';

/** The fixed catalogue of spec section 3, as `listConfigurations` answers it (shuffled on purpose). */
export const CONFIGURATIONS: Configuration[] = [
  { id: 3, key: 'small', name: 'Small', cpu: 6, ram: 10, disk: 180 },
  { id: 1, key: 'micro', name: 'Micro', cpu: 2, ram: 4, disk: 80 },
  { id: 6, key: 'extraLarge', name: 'Extra Large', cpu: 16, ram: 64, disk: 400 },
  { id: 2, key: 'extraSmall', name: 'Extra Small', cpu: 4, ram: 8, disk: 120 },
  { id: 5, key: 'large', name: 'Large', cpu: 12, ram: 48, disk: 300 },
  { id: 4, key: 'medium', name: 'Medium', cpu: 8, ram: 12, disk: 240 },
];

const counts = (values: Partial<SizeCounts> = {}): SizeCounts => ({
  micro: 0,
  extraSmall: 0,
  small: 0,
  medium: 0,
  large: 0,
  extraLarge: 0,
  ...values,
});

export const USAGE: DashboardData = {
  currentMonth: counts({ micro: 3, small: 1, large: 1250 }),
  previousMonth: counts({ micro: 2, medium: 4 }),
  ytd: counts({ micro: 5, small: 1, medium: 4, large: 1250 }),
};

/** The figures above the Dashboard's tabs, for a company with VMs. */
export const SUMMARY: DashboardSummary = {
  vms: { total: 14, running: 9, stopped: 3, error: 1 },
  networks: 4,
  publicIps: 16,
  vmHours: 1234.56,
};

/** Nothing yet: a new company. */
export const EMPTY_USAGE: DashboardData = {
  currentMonth: counts(),
  previousMonth: counts(),
  ytd: counts(),
};
export const EMPTY_SUMMARY: DashboardSummary = {
  vms: { total: 0, running: 0, stopped: 0, error: 0 },
  networks: 0,
  publicIps: 0,
  vmHours: 0,
};

/**
 * Answers the Dashboard: its figures and its VM Usage tab. Returns the number of calls made to
 * each endpoint.
 */
export function serveDashboard({
  usage = USAGE,
  configurations = CONFIGURATIONS,
  summary = SUMMARY,
}: { usage?: DashboardData; configurations?: Configuration[]; summary?: DashboardSummary } = {}) {
  const calls = { usage: 0, configurations: 0, summary: 0 };
  server.use(
    http.get(api('dashboard/summary'), () => {
      calls.summary += 1;
      return ok(summary);
    }),
    http.get(api('virtualMachines/GetDashboardData'), () => {
      calls.usage += 1;
      return ok(usage);
    }),
    http.get(api('virtualMachines/listConfigurations'), () => {
      calls.configurations += 1;
      return ok(configurations);
    }),
  );
  return calls;
}
