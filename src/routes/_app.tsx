import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute, Outlet } from '@tanstack/react-router';
import { AppLayout } from '../components/app-shell';
import { nextTask } from '../components/next-task';
import { useLiveEvents } from '../live/use-live-events';
import { authQueries } from '../queries/auth';
import { requireAuth } from './-components/require-auth';

export const Route = createFileRoute('/_app')({
  // The authentication check runs before any protected screen loads.
  beforeLoad: ({ context }) => requireAuth(context.queryClient),
  // The screen's own loaders have sent its requests by now: a turn of the event loop before the
  // screen is drawn, so that drawing it (one long task) does not hold them up.
  loader: nextTask,
  component: ProtectedLayout,
});

function ProtectedLayout() {
  // beforeLoad has put the signed-in user in the cache; this reads it (and its refreshes).
  const { data } = useSuspenseQuery(authQueries.check());
  useLiveEvents(data.user.id);
  return (
    <AppLayout user={data.user}>
      <Outlet />
    </AppLayout>
  );
}
