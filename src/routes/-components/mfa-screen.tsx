import { Anchor, Center, Divider, Loader, Stack, Text } from '@mantine/core';
import { revalidateLogic } from '@tanstack/react-form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from '@tanstack/react-router';
import { useRef, useState, type ReactNode } from 'react';
import { verifyCode } from '../../api/auth';
import { ApiError } from '../../api/client';
import { authMessages, mfaBody } from '../../api/contract/auth';
import type { User } from '../../api/contract/auth';
import { recoveryCodeBody, type SecondStep } from '../../api/contract/second-factor';
import { MFA_CODE_LENGTH } from '../../api/contract/validation';
import { sessionStore } from '../../api/session-store';
import { AuthCard, ReturnToLogin } from '../../components/auth-card';
import { identityErrorLeads } from '../../components/error-text';
import { useAppForm } from '../../components/form';
import { FormError } from '../../components/form-error';
import { authQueries } from '../../queries/auth';
import { secondFactorKeys, secondFactorQueries } from '../../queries/second-factor';
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

/**
 * What another way to pass the second step (a passkey) gets: whether the user has
 * one, and what to call once the server has verified the session with it.
 */
export interface SecondStepAlternativeProps {
  passkey: boolean;
  onVerified: (user: User) => void;
}

/**
 * The code the field asks for: the e-mailed code (the spec's page), the authenticator app's
 * code, or one of the app's recovery codes.
 */
type CodeKind = 'email' | 'totp' | 'recovery';

/**
 * The one-time code page. A user with an authenticator app is asked for its code instead of an
 * e-mailed one (no e-mail was sent), with "Use a recovery code" beside it. `alternatives` draws
 * other second steps under the form (a passkey's button).
 */
export function MfaScreen({
  alternatives,
}: {
  alternatives?: (props: SecondStepAlternativeProps) => ReactNode;
} = {}) {
  // The login hands over which second step its answer named. Without it (the page reloaded, a
  // link followed) the session waiting for its second step is asked; a failed read leaves the
  // spec's page: the e-mailed code is what the sign-in sent unless the user has the app. That read
  // is always afresh: an earlier sign-in's answer (another user, say) must not choose the page.
  const handed = useLocation({ select: (location) => location.state.secondStep });
  const status = useQuery({
    ...secondFactorQueries.status(),
    enabled: !handed,
    retry: false,
    staleTime: 0,
    refetchOnMount: 'always',
  });
  if (handed) return <CodeStep step={handed} alternatives={alternatives} />;
  if (!status.isFetchedAfterMount) {
    return (
      <AuthCard title="Two-step verification" footer={<ReturnToLogin />}>
        <Center py="md">
          <Loader size="sm" aria-label="Loading sign-in step" />
        </Center>
      </AuthCard>
    );
  }
  return <CodeStep step={status.data} alternatives={alternatives} />;
}

function CodeStep({
  step,
  alternatives,
}: {
  step: SecondStep | undefined;
  alternatives?: (props: SecondStepAlternativeProps) => ReactNode;
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const state = useLocation({ select: (location) => location.state });
  const storedUser = sessionStore.get()?.user;
  // Where the code went: handed over by the login screen, else the stored user's address.
  const email = state.email || storedUser?.email;
  const app = step?.secondFactor === 'totp';
  const [kind, setKind] = useState<CodeKind>(app ? 'totp' : 'email');

  const onVerified = (user: User) => {
    queryClient.setQueryData(authQueries.check().queryKey, { user });
    // The company's policy may now hold the user at enrolment: read it as a signed-in session.
    void queryClient.invalidateQueries({ queryKey: secondFactorKeys.all });
    storeVerifiedUser(user);
    if (user.forcePasswordReset)
      void navigate({
        to: '/resetPassword',
        search: { token: user.resetKey ?? undefined, id: user.id },
      });
    else void navigate({ to: '/' });
  };

  return (
    <AuthCard
      title={app ? 'Check your authenticator app' : 'Please check your email'}
      footer={<ReturnToLogin />}
    >
      {kind === 'email' && <SentTo email={email} />}
      {kind === 'totp' && (
        <Text size="sm" c="dimmed" ta="center">
          Open the authenticator app you set up for this account and enter the {MFA_CODE_LENGTH}
          -digit code it shows.
        </Text>
      )}
      {kind === 'recovery' && (
        <Text size="sm" c="dimmed" ta="center">
          Enter one of the recovery codes you saved when you set up the app. Each code works once.
        </Text>
      )}
      {/* Keyed: switching to a recovery code starts from an empty field and no stale error. */}
      <CodeForm key={kind} kind={kind} onVerified={onVerified} />
      {app && (
        <Center>
          <Anchor
            component="button"
            type="button"
            size="sm"
            onClick={() => setKind(kind === 'recovery' ? 'totp' : 'recovery')}
          >
            {kind === 'recovery' ? 'Use the authenticator app' : 'Use a recovery code'}
          </Anchor>
        </Center>
      )}
      {alternatives && step?.passkey && (
        <>
          <Divider label="or" labelPosition="center" />
          {alternatives({ passkey: true, onVerified })}
        </>
      )}
    </AuthCard>
  );
}

function SentTo({ email }: { email: string | undefined }) {
  return (
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
  );
}

function CodeForm({ kind, onVerified }: { kind: CodeKind; onVerified: (user: User) => void }) {
  const firstSlot = useRef<HTMLInputElement>(null);
  const schema = kind === 'recovery' ? recoveryCodeBody : mfaBody;
  const verify = useMutation({
    mutationFn: ({ code }: { code: string }) => verifyCode(schema.parse({ code }).code),
    onSuccess: ({ data: { user } }) => onVerified(user),
  });
  const codeSpent =
    verify.error instanceof ApiError && spentCodeMessages.includes(verify.error.message);

  const form = useAppForm({
    defaultValues: { code: '' },
    validationLogic: revalidateLogic(),
    validators: { onDynamic: schema },
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
    <form.AppForm>
      <form.Form aria-label={kind === 'recovery' ? 'Recovery code' : 'One-time code'}>
        <Stack gap="md">
          <form.AppField name="code">
            {(field) =>
              kind === 'recovery' ? (
                <field.TextField
                  label="Recovery code"
                  placeholder="xxxxx-xxxxx"
                  autoComplete="off"
                  autoCapitalize="none"
                  spellCheck={false}
                  autoFocus
                  disabled={codeSpent}
                  ref={firstSlot}
                />
              ) : (
                <CodeField
                  label={kind === 'totp' ? 'Authenticator code' : 'One-time code'}
                  length={MFA_CODE_LENGTH}
                  autoFocus
                  disabled={codeSpent}
                  inputRef={firstSlot}
                />
              )
            }
          </form.AppField>
          <FormError title={identityErrorLeads.authenticate} error={verify.error}>
            {codeSpent && (
              <Text size="sm" mt={4}>
                Please return to login to {kind === 'email' ? 'request a new code' : 'try again'}.
              </Text>
            )}
          </FormError>
          <form.SubmitButton disabled={codeSpent}>Authenticate</form.SubmitButton>
        </Stack>
      </form.Form>
    </form.AppForm>
  );
}
