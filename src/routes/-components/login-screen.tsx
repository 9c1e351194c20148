import { Anchor, Button, Checkbox, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { login } from '../../api/auth';
import { loginBody, type LoginBody } from '../../api/contract/auth';
import { sessionStore } from '../../api/session-store';
import { AuthCard } from '../../components/auth-card';
import { identityErrorLeads } from '../../components/error-text';
import { FormError } from '../../components/form-error';
import { PasskeyLoginButton } from './passkey-login-button';

type Values = Required<LoginBody>;
type FieldErrors = Partial<Record<keyof Values, string>>;

/** The first message of each field the contract's schema refuses. */
function loginErrors(values: Values): FieldErrors {
  const result = loginBody.safeParse(values);
  const errors: FieldErrors = {};
  for (const issue of result.error?.issues ?? []) {
    const field = issue.path[0] as keyof Values;
    errors[field] ??= issue.message;
  }
  return errors;
}

/**
 * The sign-in form. Unlike the console's other forms it is not built with TanStack Form (the
 * console's form toolkit, `components/form.tsx`): that library is a tenth of this screen's first
 * download, and these three fields need none of it (docs/decisions/0019-sign-in-form-without-the-form-toolkit.md). It
 * behaves as the others do: the contract's schema checks it on submit, then on every change.
 *
 * `authCheckError`: the session check on opening failed for another reason than no session.
 */
export function LoginScreen({ authCheckError }: { authCheckError?: Error }) {
  const navigate = useNavigate();
  const [values, setValues] = useState<Values>({ email: '', password: '', rememberMe: false });
  const [submitted, setSubmitted] = useState(false);
  const errors = submitted ? loginErrors(values) : {};
  const signIn = useMutation({
    mutationFn: (typed: Values) => {
      const body = loginBody.parse(typed);
      // A new login starts from nothing; Remember me decides where the new token is kept.
      sessionStore.clear();
      sessionStore.setRememberMe(body.rememberMe);
      return login(body);
    },
    onSuccess: ({ data: { user, secondFactor, passkey } }, typed) => {
      sessionStore.save({
        user,
        rememberMe: typed.rememberMe,
        lastAuthed: new Date().toISOString(),
        needsReset: user.forcePasswordReset,
        resetKey: user.resetKey,
      });
      void navigate({
        to: '/mfa',
        state: {
          email: user.email,
          resellerEmail: user.resellerEmail ?? '',
          user,
          secondStep: { secondFactor, passkey },
        },
      });
    },
    onError: () => sessionStore.clear(),
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    const invalid = Object.keys(loginErrors(values))[0];
    if (invalid) event.currentTarget.querySelector<HTMLElement>(`[name=${invalid}]`)?.focus();
    else if (!signIn.isPending) signIn.mutate(values);
  };
  const text = (name: 'email' | 'password') => ({
    name,
    value: values[name],
    onChange: (event: { currentTarget: HTMLInputElement }) =>
      setValues({ ...values, [name]: event.currentTarget.value }),
    error: errors[name],
    required: true,
    // `required` still reaches assistive technology; no asterisk, as every field is needed.
    withAsterisk: false,
  });

  return (
    <AuthCard title="Login">
      <form aria-label="Login" noValidate onSubmit={submit}>
        <Stack gap="md">
          <TextInput
            {...text('email')}
            label="Email"
            type="email"
            autoComplete="username"
            inputMode="email"
            autoFocus
          />
          <PasswordInput {...text('password')} label="Password" autoComplete="current-password" />
          <Group justify="space-between" wrap="nowrap">
            <Checkbox
              name="rememberMe"
              label="Remember me"
              checked={values.rememberMe}
              onChange={(event) =>
                setValues({ ...values, rememberMe: event.currentTarget.checked })
              }
            />
            <Anchor component={Link} to="/forgotPassword" size="sm">
              Forgot Password?
            </Anchor>
          </Group>
          {signIn.isIdle && (
            <FormError title={identityErrorLeads.checkAuth} error={authCheckError} />
          )}
          <FormError title={identityErrorLeads.login} error={signIn.error} />
          <Button type="submit" fullWidth loading={signIn.isPending}>
            Login
          </Button>
          <PasskeyLoginButton rememberMe={values.rememberMe} />
        </Stack>
      </form>
    </AuthCard>
  );
}
