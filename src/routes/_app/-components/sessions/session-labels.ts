import type { UserSession } from '../../../../api/contract/sessions';

/** The fixed leads of this section's failures; the server's message follows each. */
export const sessionErrorLeads = {
  fetch: 'Error fetching sessions',
  signOut: 'Error signing out of the session',
  signOutOthers: 'Error signing out of the other sessions',
  endAll: 'Error ending the sessions',
} as const;

/** "Chrome 131 on macOS 14.5"; what is unknown is said so. */
export function sessionLabel(session: Pick<UserSession, 'browser' | 'system'>): string {
  if (session.browser && session.system) return `${session.browser} on ${session.system}`;
  return session.browser ?? session.system ?? 'Unknown browser';
}

export const secondFactorLabels: Record<string, string> = {
  email: 'E-mailed code',
  totp: 'Authenticator app',
  recovery: 'Recovery code',
  passkey: 'Passkey',
};
