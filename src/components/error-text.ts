import { ApiError } from '../api/client';

/** The fixed leads of spec section 8 for the identity screens; the server's message follows each. */
export const identityErrorLeads = {
  login: 'Error logging in.',
  authenticate: 'Error authenticating',
  checkAuth: 'Error checking auth.',
  logout: 'Error logging out',
  resetPassword: 'Error resetting password',
  confirmEmail: 'Error confirming email',
  forgotPassword: 'Error forgot password',
} as const;

/** The message to show under a lead: the server's own words when there was an answer. */
export const errorMessage = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/** Per-field messages of a 400 answer that say more than its message does. */
export const fieldErrorMessages = (error: unknown): string[] =>
  error instanceof ApiError
    ? [...new Set(error.errors.map((e) => e.message))].filter((m) => m !== error.message)
    : [];

/** The fixed leads of spec section 8 for users, teams and roles. */
export const managementErrorLeads = {
  fetchUsers: 'Error fetching users',
  createUser: 'Error creating users',
  editUser: 'Error editing user',
  deleteUser: 'Error deleting users',
  fetchUser: 'Error fetching user',
  fetchRoles: 'Error fetching user roles',
  updateRole: 'Error updating user role',
  fetchTeam: 'Error fetching team',
  fetchTeams: 'Error fetching teams',
  addTeamUser: 'Error adding user to team',
  removeTeamUser: 'Error removing user from team',
  createTeam: 'Error creating team',
  updateTeam: 'Error updating team',
  deleteTeam: 'Error deleting team',
} as const;

/** The fixed leads of spec section 8 for virtual machines (some end with their colon). */
export const vmErrorLeads = {
  fetchVms: 'Error fetching virtual machines',
  fetchVm: 'Error fetching virtual machine details:',
  fetchImages: 'Error fetching virtual machines images',
  fetchConfigurations: 'Error fetching configurations:',
  createVm: 'Error creating virtual machine',
  fetchConsole: 'Failed to fetch console URL',
  invalidConsoleUrl: 'Invalid console URL',
} as const;

/** The fixed leads of spec section 8 for networks and the interfaces of a VM. */
export const networkErrorLeads = {
  fetchNetworks: 'Error fetching networks',
  fetchCidrDetails: 'Error fetching CIDR details',
  fetchNetAdapters: 'Error fetching net adapters',
  fetchNetworkVms: 'Error fetching network VMs',
  deleteNetwork: 'Error deleting network',
  fetchAvailableNetworks: 'Error fetching available networks',
} as const;

/** A lead with the underlying message after a colon, or the lead alone when there is none. */
export const withLead = (lead: string, error: unknown): string => {
  const message = error === undefined || error === null ? '' : errorMessage(error);
  if (!message) return lead;
  return lead.endsWith(':') ? `${lead} ${message}` : `${lead}: ${message}`;
};

/** The fixed leads of spec section 8 for the Dashboard's usage table. */
export const dashboardErrorLeads = {
  fetchDashboard: 'Error fetching dashboard data',
} as const;
