/** The leads of the customer screens' failures; the server's message follows each. */
export const customerErrorLeads = {
  fetchCustomers: 'Error fetching customers',
  fetchCustomer: 'Error fetching customer',
  createCustomer: 'Error creating customer',
  suspendCustomer: 'Error suspending customer',
  resumeCustomer: 'Error resuming customer',
  saveLimits: 'Error saving limits',
} as const;

/** "3 / 5": VMs running of all the company's VMs. */
export const vmsRunningOfTotal = ({
  vmsRunning,
  vmsTotal,
}: {
  vmsRunning: number;
  vmsTotal: number;
}) => `${vmsRunning} / ${vmsTotal}`;
