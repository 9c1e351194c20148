import { Stack, Text } from '@mantine/core';
import { revalidateLogic } from '@tanstack/react-form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from '@tanstack/react-router';
import { useRef } from 'react';
import { verifyCode } from '../../api/auth';
import { ApiError } from '../../api/client';
import { authMessages, mfaBody } from '../../api/contract/auth';
import type { User } from '../../api/contract/auth';
import { MFA_CODE_LENGTH } from '../../api/contract/validation';
import { sessionStore } from '../../api/session-store';
import { AuthCard, ReturnToLogin } from '../../components/auth-card';
import { identityErrorLeads } from '../../components/error-text';
import { FormError, useAppForm } from '../../components/form';
import { authQueries } from '../../queries/auth';
import { CodeField } from './code-field';

/** Answers after which this code can never succeed: only a new login sends a new one. */
const spentCodeMessages: string[] = [authMessages.retriesExhausted, authMessages.codeExpired];

/** The code check answers with the verified user: keep it, with its forced-reset state. */
function storeVerifiedUser(user: User) {
  const stored = sessionStore.get();
  sessionStore.save({
    rememberMe: stored?.rememberMe ?? false,
    lastAuthed: stored?.lastAuthed ?? new Date().toISOString(),
    user,
    needsReset: user.forcePasswordReset,
    resetKey: user.resetKey,
  });
}

export function MfaScreen() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const state = useLocation({ select: (location) => location.state });
  const storedUser = sessionStore.get()?.user;
  // Where the code went: handed over by the login screen, else the stored user's address.
  const email = state.email || storedUser?.email;
  const firstSlot = useRef<HTMLInputElement>(null);

  const verify = useMutation({
    mutationFn: ({ code }: { code: string }) => verifyCode(mfaBody.parse({ code }).code),
    onSuccess: ({ data: { user } }) => {
      queryClient.setQueryData(authQueries.check().queryKey, { user });
      storeVerifiedUser(user);
      if (user.forcePasswordReset)
        void navigate({
          to: '/resetPassword',
          search: { token: user.resetKey ?? undefined, id: user.id },
        });
      else void navigate({ to: '/' });
    },
  });
  const codeSpent =
    verify.error instanceof ApiError && spentCodeMessages.includes(verify.error.message);

  const form = useAppForm({
    defaultValues: { code: '' },
    validationLogic: revalidateLogic(),
    validators: { onDynamic: mfaBody },
    onSubmit: async ({ value, formApi }) => {
      try {
        await verify.mutateAsync(value);
      } catch {
        // Empty slots (and no stale validation) so the user can type the code again.
        formApi.reset();
        firstSlot.current?.focus();
      }
    },
  });

  return (
    <AuthCard title="Please check your email" footer={<ReturnToLogin />}>
      <Text size="sm" c="dimmed" ta="center">
        {email ? (
          <>
            We sent a {MFA_CODE_LENGTH}-digit code to{' '}
            <Text span size="sm" fw={600} c="dark.6">
              {email}
            </Text>
            .
          </>
        ) : (
          `We sent a ${MFA_CODE_LENGTH}-digit code to your email.`
        )}
      </Text>
      <form.AppForm>
        <form.Form aria-label="One-time code">
          <Stack gap="md">
            <form.AppField name="code">
              {() => (
                <CodeField
                  label="One-time code"
                  length={MFA_CODE_LENGTH}
                  autoFocus
                  disabled={codeSpent}
                  inputRef={firstSlot}
                />
              )}
            </form.AppField>
            <FormError title={identityErrorLeads.authenticate} error={verify.error}>
              {codeSpent && (
                <Text size="sm" mt={4}>
                  Please return to login to request a new code.
                </Text>
              )}
            </FormError>
            <form.SubmitButton disabled={codeSpent}>Authenticate</form.SubmitButton>
          </Stack>
        </form.Form>
      </form.AppForm>
    </AuthCard>
  );
}
