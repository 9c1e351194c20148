import type { ApiTokenAccess } from '../../../../api/contract/api-tokens';

export const accessLabels: Record<ApiTokenAccess, string> = {
  read: 'Read only',
  readWrite: 'Read and write',
};

export const accessDescriptions: Record<ApiTokenAccess, string> = {
  read: 'Reads only (GET requests): lists, details, the activity stream.',
  readWrite: 'Everything you may do yourself, except making tokens or changing your password.',
};

/** The fixed leads of this screen's failures; the server's message follows each. */
export const apiTokenErrorLeads = {
  fetch: 'Error fetching API tokens',
  create: 'Error creating API token',
  revoke: 'Error revoking API token',
  revokeAll: 'Error revoking API tokens',
} as const;

/** The teams a token is narrowed to; its teams may all have been deleted since. */
export const teamsLabel = (teams: readonly { name: string }[] | null) => {
  if (teams === null) return 'All teams';
  return teams.length ? teams.map((team) => team.name).join(', ') : 'No team left';
};
