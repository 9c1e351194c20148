import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute, Outlet } from '@tanstack/react-router';
import { AppLayout } from '../components/app-shell';
import { DrawnLater } from '../boot/drawn-later';
import { nextTask } from '../boot/next-task';
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
  // Drawn in two deferred renders, the layout and then the screen, which React draws in slices
  // between the browser's other work: drawn at once they were one long task that blocked a phone
  // for a third of a second after sign-in or a reload.
  return (
    <DrawnLater>
      <AppLayout user={data.user}>
        <DrawnLater>
          <Outlet />
        </DrawnLater>
      </AppLayout>
    </DrawnLater>
  );
}
