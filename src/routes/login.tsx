import { createFileRoute, redirect } from '@tanstack/react-router';
import { ApiError } from '../api/client';
import { authQueries } from '../queries/auth';
import { LoginScreen } from './-components/login-screen';

export const Route = createFileRoute('/login')({
  // A session that is already verified skips the form; the one-time code page sends it on.
  // A check that fails for another reason than "not signed in" is shown above the form.
  beforeLoad: async ({ context }) => {
    const checkError = await context.queryClient.fetchQuery(authQueries.check()).then(
      () => null,
      (error: unknown) =>
        error instanceof ApiError && error.status === 401 ? undefined : (error as Error),
    );
    if (checkError === null) throw redirect({ to: '/mfa' });
    return { authCheckError: checkError };
  },
  component: function Login() {
    return <LoginScreen authCheckError={Route.useRouteContext().authCheckError} />;
  },
});
