import { Anchor, Group, Stack } from '@mantine/core';
import { revalidateLogic } from '@tanstack/react-form';
import { useMutation } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { login } from '../../api/auth';
import { loginBody, type LoginBody } from '../../api/contract/auth';
import { sessionStore } from '../../api/session-store';
import { AuthCard } from '../../components/auth-card';
import { identityErrorLeads } from '../../components/error-text';
import { FormError, useAppForm } from '../../components/form';

/** `authCheckError`: the session check on opening failed for another reason than no session. */
export function LoginScreen({ authCheckError }: { authCheckError?: Error }) {
  const navigate = useNavigate();
  const signIn = useMutation({
    mutationFn: (values: LoginBody) => {
      const body = loginBody.parse(values);
      // A new login starts from nothing; Remember me decides where the new token is kept.
      sessionStore.clear();
      sessionStore.setRememberMe(body.rememberMe);
      return login(body);
    },
    onSuccess: ({ data: { user } }, values) => {
      sessionStore.save({
        user,
        rememberMe: values.rememberMe === true,
        lastAuthed: new Date().toISOString(),
        needsReset: user.forcePasswordReset,
        resetKey: user.resetKey,
      });
      void navigate({
        to: '/mfa',
        state: { email: user.email, resellerEmail: user.resellerEmail ?? '', user },
      });
    },
    onError: () => sessionStore.clear(),
  });

  const form = useAppForm({
    defaultValues: { email: '', password: '', rememberMe: false } as LoginBody,
    validationLogic: revalidateLogic(),
    validators: { onDynamic: loginBody },
    // The failure is shown from the mutation's state; the typed values stay.
    onSubmit: ({ value }) => signIn.mutateAsync(value).catch(() => undefined),
  });

  return (
    <AuthCard title="Login">
      <form.AppForm>
        <form.Form aria-label="Login">
          <Stack gap="md">
            <form.AppField name="email">
              {(field) => (
                <field.TextField
                  label="Email"
                  type="email"
                  autoComplete="username"
                  inputMode="email"
                  autoFocus
                  required
                />
              )}
            </form.AppField>
            <form.AppField name="password">
              {(field) => (
                <field.PasswordField label="Password" autoComplete="current-password" required />
              )}
            </form.AppField>
            <Group justify="space-between" wrap="nowrap">
              <form.AppField name="rememberMe">
                {(field) => <field.CheckboxField label="Remember me" />}
              </form.AppField>
              <Anchor component={Link} to="/forgotPassword" size="sm">
                Forgot Password?
              </Anchor>
            </Group>
            {signIn.isIdle && (
              <FormError title={identityErrorLeads.checkAuth} error={authCheckError} />
            )}
            <FormError title={identityErrorLeads.login} error={signIn.error} />
            <form.SubmitButton>Login</form.SubmitButton>
          </Stack>
        </form.Form>
      </form.AppForm>
    </AuthCard>
  );
}
