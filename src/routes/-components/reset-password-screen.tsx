import { Stack } from '@mantine/core';
import { revalidateLogic } from '@tanstack/react-form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useLocation, useNavigate } from '@tanstack/react-router';
import type { z } from '../../api/contract/zod';
import { sessionStore } from '../../api/session-store';
import { resetPasswordFromEmail } from '../../api/users';
import { AuthCard } from '../../components/auth-card';
import { identityErrorLeads } from '../../components/error-text';
import { useAppForm } from '../../components/form';
import { FormError } from '../../components/form-error';
import { NewPasswordFields, newPasswordFormSchema } from '../../components/new-password-fields';
import { authKeys } from '../../queries/auth';
import { DonePanel } from './done-panel';
import { MissingToken } from './token-link';

const routeApi = getRouteApi('/resetPassword');

type Values = z.input<typeof newPasswordFormSchema>;

/**
 * The link's token and user id; a forced reset after the code check falls back to the stored
 * reset key and user, or to the user handed over in navigation state.
 */
function useResetTarget() {
  const search = routeApi.useSearch();
  const stateUser = useLocation({ select: (location) => location.state.user });
  const stored = sessionStore.get();
  return {
    token: search.token ?? stored?.resetKey ?? stateUser?.resetKey ?? undefined,
    id: search.id ?? stored?.user.id ?? stateUser?.id,
  };
}

export function ResetPasswordScreen() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { token, id } = useResetTarget();

  const reset = useMutation({
    // Submitted only from the form, which shows only with a token and an id.
    mutationFn: ({ password }: Values) =>
      resetPasswordFromEmail(token ?? '', { id: id ?? 0, password, resetKey: token }),
    onSuccess: () => {
      // The server has ended every session of the user (whoever knew the old password must not
      // stay signed in): forget ours too, so the way on leads through the login screen.
      sessionStore.clear();
      queryClient.removeQueries({ queryKey: authKeys.all });
    },
  });

  const form = useAppForm({
    defaultValues: { password: '', confirmPassword: '' } as Values,
    validationLogic: revalidateLogic(),
    validators: { onDynamic: newPasswordFormSchema },
    onSubmit: ({ value }) => reset.mutateAsync(value).catch(() => undefined),
  });

  if (reset.isSuccess)
    return (
      <AuthCard title="Password Reset Complete">
        <DonePanel action="Go to Reseller Launchpad" onAction={() => void navigate({ to: '/' })}>
          Your password has been successfully reset.
        </DonePanel>
      </AuthCard>
    );

  return (
    <AuthCard title="Reset Password">
      {token && id ? (
        <form.AppForm>
          <form.Form aria-label="Reset Password">
            <Stack gap="md">
              <NewPasswordFields
                form={form}
                fields={{ password: 'password', confirmPassword: 'confirmPassword' }}
              />
              <FormError title={identityErrorLeads.resetPassword} error={reset.error} />
              <form.SubmitButton>Reset Password</form.SubmitButton>
            </Stack>
          </form.Form>
        </form.AppForm>
      ) : (
        <MissingToken />
      )}
    </AuthCard>
  );
}
