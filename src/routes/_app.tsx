import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute, Outlet } from '@tanstack/react-router';
import { nextTask } from '../boot/next-task';
import { authQueries } from '../queries/auth';
import { requireAuth } from './-components/require-auth';
import { NotFoundPage } from './-components/not-found-screen';
import { SignedInLayout } from './-components/signed-in-layout';
import { EnrolmentGate } from './_app/-components/security/enrolment-gate';

export const Route = createFileRoute('/_app')({
  // The authentication check runs before any protected screen loads.
  beforeLoad: ({ context }) => requireAuth(context.queryClient),
  // The screen's own loaders have sent its requests by now: a turn of the event loop before the
  // screen is drawn, so that drawing it (one long task) does not hold them up.
  loader: nextTask,
  component: ProtectedLayout,
  // An address under a signed-in screen that leads nowhere: the page inside the layout.
  notFoundComponent: NotFoundPage,
});

function ProtectedLayout() {
  // beforeLoad has put the signed-in user in the cache; this reads it (and its refreshes).
  const { data } = useSuspenseQuery(authQueries.check());
  return (
    <EnrolmentGate>
      <SignedInLayout user={data.user}>
        <Outlet />
      </SignedInLayout>
    </EnrolmentGate>
  );
}
