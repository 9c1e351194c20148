import type { QueryClient } from '@tanstack/react-query';
import { redirect } from '@tanstack/react-router';
import { sessionStore } from '../../api/session-store';
import { authQueries } from '../../queries/auth';

/**
 * The authentication check of every protected layout (with or without the app shell): it runs
 * before any protected screen loads, and a failure forgets the session and goes to /login.
 */
export async function requireAuth(queryClient: QueryClient) {
  try {
    await queryClient.ensureQueryData(authQueries.check());
  } catch {
    sessionStore.clear();
    throw redirect({ to: '/login' });
  }
}
