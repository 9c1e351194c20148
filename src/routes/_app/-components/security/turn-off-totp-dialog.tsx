import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { revalidateLogic } from '@tanstack/react-form';
import { useMutation } from '@tanstack/react-query';
import { totpDisableBody } from '../../../../api/contract/second-factor';
import { useAppForm } from '../../../../components/form';
import { FormError } from '../../../../components/form-error';
import { notify } from '../../../../components/notify';
import { secondFactorMutations } from '../../../../queries/second-factor';
import { securityTexts } from './security-texts';

/**
 * Turning the app off: the password and a code from the app (or a recovery code), so that a
 * session left open is not enough. What was typed stays on a failed try.
 */
export function TurnOffTotpDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Turn off authenticator app?" centered>
      {opened && <TurnOffForm onClose={onClose} />}
    </Modal>
  );
}

function TurnOffForm({ onClose }: { onClose: () => void }) {
  const disable = useMutation(secondFactorMutations.disable());
  const form = useAppForm({
    defaultValues: { password: '', code: '' },
    validationLogic: revalidateLogic(),
    validators: { onDynamic: totpDisableBody },
    onSubmit: async ({ value }) => {
      try {
        const { message } = await disable.mutateAsync(totpDisableBody.parse(value));
        notify(message);
        onClose();
      } catch {
        // Shown by FormError; the fields keep what was typed.
      }
    },
  });
  return (
    <form.AppForm>
      <form.Form aria-label="Turn off authenticator app">
        <Stack gap="md">
          <Text size="sm">
            Signing in will ask for a code sent by email again, and your recovery codes stop
            working.
          </Text>
          <form.AppField name="password">
            {(field) => (
              <field.PasswordField
                label="Password"
                autoComplete="current-password"
                required
                data-autofocus
              />
            )}
          </form.AppField>
          <form.AppField name="code">
            {(field) => (
              <field.TextField
                label="Code from the app, or a recovery code"
                autoComplete="one-time-code"
                autoCapitalize="none"
                spellCheck={false}
                required
              />
            )}
          </form.AppField>
          <FormError title={securityTexts.disableError} error={disable.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <form.SubmitButton fullWidth={false} color="red">
              Turn off
            </form.SubmitButton>
          </Group>
        </Stack>
      </form.Form>
    </form.AppForm>
  );
}
