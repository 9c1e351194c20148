import { Button } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { authQueries } from '../../queries/auth';
import { FormError } from '../../components/form-error';

/**
 * "Sign in with a passkey": no password, no code. Small on purpose: the sign-in page's download
 * has a budget, so the browser's side of passkeys loads when the button is pressed.
 */
export function PasskeyLoginButton({ rememberMe }: { rememberMe: boolean }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const signIn = useMutation({
    mutationFn: () =>
      typeof PublicKeyCredential === 'undefined'
        ? Promise.reject(new Error('This browser cannot use passkeys'))
        : import('../../api/passkey-ceremonies').then((m) => m.passkeySignIn(rememberMe)),
    onSuccess: (user) => {
      queryClient.setQueryData(authQueries.check().queryKey, { user });
      void navigate(
        user.forcePasswordReset
          ? { to: '/resetPassword', search: { token: user.resetKey ?? undefined, id: user.id } }
          : { to: '/' },
      );
    },
  });
  // Drawn in every browser, as the build draws it into /login before the code runs: the card
  // must not move when the console takes it over.
  return (
    <>
      <FormError title="Error signing in with a passkey" error={signIn.error} />
      <Button variant="subtle" size="xs" loading={signIn.isPending} onClick={() => signIn.mutate()}>
        Sign in with a passkey
      </Button>
    </>
  );
}
