import { createFileRoute, redirect } from '@tanstack/react-router';
import { sessionStore } from '../api/session-store';
import { authQueries } from '../queries/auth';
import { MfaScreen } from './-components/mfa-screen';

export const Route = createFileRoute('/mfa')({
  // A verified session has nothing to enter here: on to the dashboard, or to the forced reset.
  beforeLoad: async ({ context }) => {
    const authed = await context.queryClient.fetchQuery(authQueries.check()).then(
      () => true,
      () => false,
    );
    if (!authed) return;
    const session = sessionStore.get();
    if (session?.needsReset)
      throw redirect({
        to: '/resetPassword',
        search: { token: session.resetKey ?? undefined, id: session.user.id },
      });
    throw redirect({ to: '/' });
  },
  component: MfaScreen,
});
