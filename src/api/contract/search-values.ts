// The values of the list routes' search parameters (sortable columns, the history's filters), apart
// from their contracts: the routes' search schemas load before sign-in, the rest of the contracts
// only after.

export const vmSortColumns = ['name', 'status', 'configuration', 'createdAt'] as const;
export type VmSortColumn = (typeof vmSortColumns)[number];

/** The VM list's status filter: the statuses a customer tells apart (`vmStatusGroups`). */
export const vmStatusFilters = ['running', 'stopped', 'error', 'inProgress'] as const;
export type VmStatusFilter = (typeof vmStatusFilters)[number];

export const networkSortColumns = ['name', 'cidrBlock', 'region', 'connectedVms'] as const;
export type NetworkSortColumn = (typeof networkSortColumns)[number];

export const userSortColumns = ['name', 'email', 'createdAt'] as const;

/** The reseller's Customers list. */
export const customerSortColumns = ['name', 'users', 'vms', 'createdAt'] as const;
export type CustomerSortColumn = (typeof customerSortColumns)[number];

export const activitySubjectTypes = [
  'vm',
  'network',
  'user',
  'team',
  'session',
  'apiToken',
  'webhook',
  /** The company itself (its reseller suspended or resumed it). */
  'company',
] as const;
export type ActivitySubjectType = (typeof activitySubjectTypes)[number];

export const activityOutcomes = ['requested', 'succeeded', 'failed', 'observed'] as const;
export type ActivityOutcome = (typeof activityOutcomes)[number];

export const activityActorTypes = ['user', 'operator', 'system'] as const;
export type ActivityActorType = (typeof activityActorTypes)[number];
