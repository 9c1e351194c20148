import { Center, Loader } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { logout } from '../../api/auth';
import { sessionStore } from '../../api/session-store';
import { AuthCard, ReturnToLogin } from '../../components/auth-card';
import { identityErrorLeads } from '../../components/error-text';
import { FormError } from '../../components/form-error';

export function LogoutScreen() {
  const queryClient = useQueryClient();
  const { mutate, isIdle, isPending, error } = useMutation({
    mutationFn: logout,
    // Whatever the server says, nothing of the session may stay in this browser.
    onSettled: () => {
      sessionStore.clearAll();
      queryClient.clear();
    },
  });
  // Once per visit, also under StrictMode's double effects (a ref survives them).
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    mutate();
  }, [mutate]);

  if (isIdle || isPending)
    return (
      <AuthCard title="Logging Out...">
        <Center>
          <Loader aria-label="Logging out" />
        </Center>
      </AuthCard>
    );

  return (
    <AuthCard title="Logout Successful" footer={<ReturnToLogin />}>
      <FormError title={identityErrorLeads.logout} error={error} />
    </AuthCard>
  );
}
