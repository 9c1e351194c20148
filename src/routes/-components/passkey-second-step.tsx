import { Button, Stack } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { FormError } from '../../components/form-error';
import type { SecondStepAlternativeProps } from './mfa-screen';

/**
 * The one-time-code page's other way through: one of the user's passkeys or security keys
 * instead of the code. Shown only to a user who has one; the browser's side loads on the press.
 */
export function PasskeySecondStep({ passkey, onVerified }: SecondStepAlternativeProps) {
  const verify = useMutation({
    mutationFn: () =>
      import('../../api/passkey-ceremonies').then(({ passkeySecondStep }) => passkeySecondStep()),
    onSuccess: onVerified,
  });
  if (!passkey) return null;
  return (
    <Stack gap="sm">
      <Button
        variant="default"
        fullWidth
        leftSection={<IconKey size={18} aria-hidden />}
        loading={verify.isPending}
        onClick={() => verify.mutate()}
      >
        Use a passkey or security key
      </Button>
      <FormError title="Error signing in with a passkey" error={verify.error} />
    </Stack>
  );
}
