import { z } from './zod';
import { envelope } from './envelope';

/**
 * The Dashboard's figures, each counted by the server over what the caller may see: an Admin the
 * company's VMs, anyone else their teams' VMs (ARCHITECTURE.md); networks are company-wide.
 */
export const dashboardSummary = z.object({
  vms: z.object({
    /** Every VM there is now, whatever its status. */
    total: z.int(),
    running: z.int(),
    /** Stopped or shut off. */
    stopped: z.int(),
    error: z.int(),
  }),
  networks: z.int(),
  /** The public IPv4 addresses the VMs' interfaces hold. */
  publicIps: z.int(),
  /** Hours the VMs existed this month (UTC) up to now, those deleted since included. */
  vmHours: z.number(),
});
export type DashboardSummary = z.infer<typeof dashboardSummary>;
export const dashboardSummaryResponse = envelope(dashboardSummary);
