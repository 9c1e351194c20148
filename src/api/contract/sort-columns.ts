// The sortable columns of the VM and network lists, apart from their contracts: the list routes'
// search schemas need them before sign-in, the rest of those contracts only after.

export const vmSortColumns = ['name', 'status', 'configuration', 'createdAt'] as const;
export type VmSortColumn = (typeof vmSortColumns)[number];

export const networkSortColumns = ['name', 'cidrBlock', 'region', 'connectedVms'] as const;
export type NetworkSortColumn = (typeof networkSortColumns)[number];
