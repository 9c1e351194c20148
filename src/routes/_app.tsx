import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute, Outlet, redirect } from '@tanstack/react-router';
import { sessionStore } from '../api/session-store';
import { AppLayout } from '../components/app-shell';
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
  component: ProtectedLayout,
});

function ProtectedLayout() {
  // beforeLoad has put the signed-in user in the cache; this reads it (and its refreshes).
  const { data } = useSuspenseQuery(authQueries.check());
  return (
    <AppLayout user={data.user}>
      <Outlet />
    </AppLayout>
  );
}
