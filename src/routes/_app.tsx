import { createFileRoute, Outlet, redirect } from '@tanstack/react-router';
import { sessionStore } from '../api/session-store';
import { authQueries } from '../queries/auth';

export const Route = createFileRoute('/_app')({
  // The authentication check runs before any protected screen loads.
  beforeLoad: async ({ context }) => {
    try {
      await context.queryClient.ensureQueryData(authQueries.check());
    } catch {
      sessionStore.clear();
      throw redirect({ to: '/login' });
    }
  },
  component: Outlet,
});
