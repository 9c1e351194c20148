import { Alert, Button, Center, Code, CopyButton, Group, Loader, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconLink } from '@tabler/icons-react';
import { revalidateLogic } from '@tanstack/react-form';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { totpConfirmBody } from '../../../../api/contract/second-factor';
import { COPY_HIGHLIGHT_MS, CopyValueButton } from '../../../../components/copy-value-button';
import { notify } from '../../../../components/notify';
import { errorMessage } from '../../../../components/error-text';
import { useAppForm } from '../../../../components/form';
import { FormError } from '../../../../components/form-error';
import { secondFactorMutations } from '../../../../queries/second-factor';
import { CodeField } from '../../../-components/code-field';
import { RecoveryCodes } from './recovery-codes';
import { securityTexts } from './security-texts';
import { TotpQrCode } from './totp-qr-code';

/** The key as apps ask for it: groups of four, easier to type from the screen. */
const grouped = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim();

/**
 * Setting up the authenticator app: a new secret (QR code, or the key to type), confirmed by a
 * first code from the app, then the ten recovery codes shown once. `onFinished` once the user has
 * saved them: the app is on from the confirmation, but the codes must not be lost by a close.
 */
export function TotpEnrolment({
  onFinished,
  onCodesShown,
}: {
  onFinished: () => void;
  /** The recovery codes are on screen: whatever holds this should not close by accident now. */
  onCodesShown?: () => void;
}) {
  const enroll = useMutation(secondFactorMutations.enroll());
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const started = useRef(false);

  const { mutate: start } = enroll;
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    start();
  }, [start]);

  if (recoveryCodes) {
    const issuer = enroll.data
      ? (new URL(enroll.data.otpauthUri).searchParams.get('issuer') ?? '')
      : '';
    return <RecoveryCodes codes={recoveryCodes} issuer={issuer} onDone={onFinished} />;
  }
  if (enroll.isError) {
    return (
      <Alert
        color="red"
        variant="light"
        title={securityTexts.enrolError}
        icon={<IconAlertCircle aria-hidden />}
      >
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{errorMessage(enroll.error)}</Text>
          <Button size="xs" variant="light" color="red" onClick={() => enroll.mutate()}>
            Try again
          </Button>
        </Stack>
      </Alert>
    );
  }
  if (!enroll.data) {
    return (
      <Center py="lg">
        <Loader size="sm" aria-label="Preparing authenticator app" />
      </Center>
    );
  }
  const { secret, otpauthUri } = enroll.data;
  return (
    <Stack gap="lg">
      <Stack gap="xs">
        <Text size="sm" fw={600}>
          1. Scan this QR code with your authenticator app
        </Text>
        <Text size="sm" c="dimmed">
          Google Authenticator, Microsoft Authenticator, 1Password, Authy and others work.
        </Text>
        <Center>
          <TotpQrCode uri={otpauthUri} />
        </Center>
        <Text size="sm" c="dimmed">
          Can’t scan it? Enter this key in the app instead:
        </Text>
        <Group gap="xs" wrap="nowrap" justify="space-between">
          <Code
            fz="sm"
            aria-label="Setup key"
            data-secret={secret}
            style={{ userSelect: 'all', overflowWrap: 'anywhere' }}
          >
            {grouped(secret)}
          </Code>
          <CopyValueButton value={secret} label="Setup key" />
        </Group>
        {/* For an app on this same device (a password manager): the whole otpauth:// link. */}
        <CopyButton value={otpauthUri} timeout={COPY_HIGHLIGHT_MS}>
          {({ copied, copy }) => (
            <Button
              variant="subtle"
              size="compact-sm"
              color={copied ? 'teal' : undefined}
              leftSection={<IconLink size={14} aria-hidden />}
              style={{ alignSelf: 'flex-start' }}
              onClick={() => {
                copy();
                notify('Setup link copied to clipboard');
              }}
            >
              {copied ? 'Copied' : 'Copy setup link'}
            </Button>
          )}
        </CopyButton>
      </Stack>
      <ConfirmForm
        onConfirmed={(codes) => {
          setRecoveryCodes(codes);
          onCodesShown?.();
        }}
      />
    </Stack>
  );
}

function ConfirmForm({ onConfirmed }: { onConfirmed: (codes: string[]) => void }) {
  const confirm = useMutation(secondFactorMutations.confirm());
  const firstSlot = useRef<HTMLInputElement>(null);
  const form = useAppForm({
    defaultValues: { code: '' },
    validationLogic: revalidateLogic(),
    validators: { onDynamic: totpConfirmBody },
    onSubmit: async ({ value, formApi }) => {
      try {
        const { recoveryCodes } = await confirm.mutateAsync(totpConfirmBody.parse(value).code);
        onConfirmed(recoveryCodes);
      } catch {
        formApi.reset();
        firstSlot.current?.focus();
      }
    },
  });
  return (
    <form.AppForm>
      <form.Form aria-label="Confirm authenticator app">
        <Stack gap="md">
          <Text size="sm" fw={600}>
            2. Enter the 6-digit code the app shows
          </Text>
          <form.AppField name="code">
            {() => <CodeField label="Code from the app" length={6} inputRef={firstSlot} />}
          </form.AppField>
          <FormError title={securityTexts.confirmError} error={confirm.error} />
          <form.SubmitButton>Turn on</form.SubmitButton>
        </Stack>
      </form.Form>
    </form.AppForm>
  );
}
