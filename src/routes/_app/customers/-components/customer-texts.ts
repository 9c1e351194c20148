/** The leads of the customer screens' failures; the server's message follows each. */
export const customerErrorLeads = {
  fetchCustomers: 'Error fetching customers',
  fetchCustomer: 'Error fetching customer',
  createCustomer: 'Error creating customer',
  suspendCustomer: 'Error suspending customer',
  resumeCustomer: 'Error resuming customer',
  saveLimits: 'Error saving limits',
  fetchUsage: 'Error fetching usage',
  downloadUsage: 'Error downloading usage',
} as const;

/** "3 / 5": VMs running of all the company's VMs. */
export const vmsRunningOfTotal = ({
  vmsRunning,
  vmsTotal,
}: {
  vmsRunning: number;
  vmsTotal: number;
}) => `${vmsRunning} / ${vmsTotal}`;

const hourFormats = new Map<number, Intl.NumberFormat>();

/**
 * Hours in the reader's locale with a fixed number of decimals, so that a column of them lines
 * up: "1,234.5" in a list, "1,234.50" on a bill's page (the API counts to the hundredth).
 */
export function formatHours(hours: number, decimals: 1 | 2) {
  let format = hourFormats.get(decimals);
  if (!format) {
    format = new Intl.NumberFormat(undefined, {
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    });
    hourFormats.set(decimals, format);
  }
  return format.format(hours);
}
