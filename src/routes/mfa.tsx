import { createFileRoute, redirect } from '@tanstack/react-router';
import { sessionStore } from '../api/session-store';
import { authQueries } from '../queries/auth';
import { MfaScreen } from './-components/mfa-screen';
import { PasskeySecondStep } from './-components/passkey-second-step';

export const Route = createFileRoute('/mfa')({
  // A verified session has nothing to enter here: on to the dashboard, or to the forced reset.
  // Without one, a sign-in is pending only if the login screen stored its session: no code was
  // sent otherwise, so the sign-in page it is.
  beforeLoad: async ({ context }) => {
    const authed = await context.queryClient.fetchQuery(authQueries.check()).then(
      () => true,
      () => false,
    );
    const session = sessionStore.get();
    if (!authed) {
      if (session) return;
      throw redirect({ to: '/login', replace: true });
    }
    if (session?.needsReset)
      throw redirect({
        to: '/resetPassword',
        search: { token: session.resetKey ?? undefined, id: session.user.id },
      });
    throw redirect({ to: '/' });
  },
  component: () => <MfaScreen alternatives={(props) => <PasskeySecondStep {...props} />} />,
});
