import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { revalidateLogic } from '@tanstack/react-form';
import { useState, type ReactNode } from 'react';
import { PASSKEY_NAME_MAX, renamePasskeyBody } from '../../../../api/contract/passkeys';
import { useAppForm } from '../../../../components/form';
import { FormError } from '../../../../components/form-error';

interface PasskeyNameDialogProps {
  opened: boolean;
  title: string;
  /** What the dialog says above the name. */
  children?: ReactNode;
  initialName: string;
  submitLabel: string;
  errorLead: string;
  /** Runs the action; the dialog closes once it resolves, and keeps the name on a failure. */
  onSubmit: (name: string) => Promise<unknown>;
  onClose: () => void;
}

/** A passkey's name: asked before one is added, and to rename one. */
export function PasskeyNameDialog({ opened, title, onClose, ...form }: PasskeyNameDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered closeOnClickOutside={false}>
      {/* Mounted with the dialog: each opening starts from the name given. */}
      {opened && <NameForm {...form} onClose={onClose} />}
    </Modal>
  );
}

function NameForm({
  children,
  initialName,
  submitLabel,
  errorLead,
  onSubmit,
  onClose,
}: Omit<PasskeyNameDialogProps, 'opened' | 'title'>) {
  const [error, setError] = useState<unknown>(null);
  const form = useAppForm({
    defaultValues: { name: initialName },
    validationLogic: revalidateLogic(),
    validators: { onDynamic: renamePasskeyBody },
    onSubmit: async ({ value }) => {
      setError(null);
      try {
        await onSubmit(renamePasskeyBody.parse(value).name);
        onClose();
      } catch (failure) {
        setError(failure);
      }
    },
  });
  return (
    <form.AppForm>
      <form.Form aria-label={submitLabel}>
        <Stack gap="md">
          {children && (
            <Text size="sm" c="dimmed">
              {children}
            </Text>
          )}
          <form.AppField name="name">
            {(field) => (
              <field.TextField
                label="Name"
                description="So you can tell it apart, e.g. “Work laptop” or “Blue YubiKey”."
                maxLength={PASSKEY_NAME_MAX}
                autoComplete="off"
                data-autofocus
                required
              />
            )}
          </form.AppField>
          <FormError title={errorLead} error={error} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <form.SubmitButton fullWidth={false}>{submitLabel}</form.SubmitButton>
          </Group>
        </Stack>
      </form.Form>
    </form.AppForm>
  );
}
