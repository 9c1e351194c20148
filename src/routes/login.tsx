import { createFileRoute, redirect } from '@tanstack/react-router';
import { authQueries } from '../queries/auth';
import { LoginScreen } from './-components/login-screen';

export const Route = createFileRoute('/login')({
  // A session that is already verified skips the form; the one-time code page sends it on.
  beforeLoad: async ({ context }) => {
    const authed = await context.queryClient.fetchQuery(authQueries.check()).then(
      () => true,
      () => false,
    );
    if (authed) throw redirect({ to: '/mfa' });
  },
  component: LoginScreen,
});
