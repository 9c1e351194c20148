import { Stack } from '@mantine/core';
import { revalidateLogic } from '@tanstack/react-form';
import { useMutation } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { z } from '../../api/contract/zod';
import { confirmEmailBody } from '../../api/contract/users';
import { confirmEmail } from '../../api/users';
import { AuthCard } from '../../components/auth-card';
import { identityErrorLeads } from '../../components/error-text';
import { useAppForm } from '../../components/form';
import { FormError } from '../../components/form-error';
import {
  NewPasswordFields,
  newPasswordShape,
  withPasswordsMatch,
} from '../../components/new-password-fields';
import { DonePanel } from './done-panel';
import { MissingToken } from './token-link';

const routeApi = getRouteApi('/confirmNewUser');

const activationFormSchema = withPasswordsMatch(
  z.extend(z.pick(confirmEmailBody, { firstName: true, lastName: true }), newPasswordShape),
);
type Values = z.input<typeof activationFormSchema>;

export function ConfirmNewUserScreen() {
  const navigate = useNavigate();
  const { token, id } = routeApi.useSearch();

  const activate = useMutation({
    // Submitted only from the form, which shows only with a token and an id.
    mutationFn: (values: Values) => {
      const { firstName, lastName, password } = activationFormSchema.parse(values);
      return confirmEmail(token ?? '', {
        id: id ?? 0,
        password,
        resetKey: token,
        firstName,
        lastName,
      });
    },
  });

  const form = useAppForm({
    defaultValues: { firstName: '', lastName: '', password: '', confirmPassword: '' } as Values,
    validationLogic: revalidateLogic(),
    validators: { onDynamic: activationFormSchema },
    onSubmit: ({ value }) => activate.mutateAsync(value).catch(() => undefined),
  });

  if (activate.isSuccess)
    return (
      <AuthCard title="Account Activated!">
        <DonePanel action="Go to Login" onAction={() => void navigate({ to: '/login' })} />
      </AuthCard>
    );

  return (
    <AuthCard title="Activate Account">
      {token && id ? (
        <form.AppForm>
          <form.Form aria-label="Activate Account">
            <Stack gap="md">
              <form.AppField name="firstName">
                {(field) => (
                  <field.TextField
                    label="First Name"
                    autoComplete="given-name"
                    autoFocus
                    required
                  />
                )}
              </form.AppField>
              <form.AppField name="lastName">
                {(field) => (
                  <field.TextField label="Last Name" autoComplete="family-name" required />
                )}
              </form.AppField>
              <NewPasswordFields
                form={form}
                fields={{ password: 'password', confirmPassword: 'confirmPassword' }}
              />
              <FormError title={identityErrorLeads.confirmEmail} error={activate.error} />
              <form.SubmitButton>Activate Account</form.SubmitButton>
            </Stack>
          </form.Form>
        </form.AppForm>
      ) : (
        <MissingToken />
      )}
    </AuthCard>
  );
}
