import { Stack } from '@mantine/core';
import { revalidateLogic } from '@tanstack/react-form';
import { useMutation } from '@tanstack/react-query';
import { authMessages } from '../../api/contract/auth';
import { forgotPasswordBody } from '../../api/contract/users';
import { forgotPassword } from '../../api/users';
import { AuthCard, ReturnToLogin } from '../../components/auth-card';
import { identityErrorLeads } from '../../components/error-text';
import { useAppForm } from '../../components/form';
import { FormError } from '../../components/form-error';
import { DonePanel } from './done-panel';

export function ForgotPasswordScreen() {
  const request = useMutation({
    mutationFn: (values: { email: string }) =>
      forgotPassword(forgotPasswordBody.parse(values).email),
  });

  const form = useAppForm({
    defaultValues: { email: '' },
    validationLogic: revalidateLogic(),
    validators: { onDynamic: forgotPasswordBody },
    onSubmit: ({ value }) => request.mutateAsync(value).catch(() => undefined),
  });

  return (
    <AuthCard
      title={request.isSuccess ? 'Reset Request Sent!' : 'Forgot Password'}
      footer={<ReturnToLogin />}
    >
      {request.isSuccess ? (
        <DonePanel>{authMessages.forgotPasswordSent}</DonePanel>
      ) : (
        <form.AppForm>
          <form.Form aria-label="Forgot Password">
            <Stack gap="md">
              <form.AppField name="email">
                {(field) => (
                  <field.TextField
                    label="Email"
                    type="email"
                    autoComplete="email"
                    inputMode="email"
                    autoFocus
                    required
                  />
                )}
              </form.AppField>
              <FormError title={identityErrorLeads.forgotPassword} error={request.error} />
              <form.SubmitButton>Continue</form.SubmitButton>
            </Stack>
          </form.Form>
        </form.AppForm>
      )}
    </AuthCard>
  );
}
