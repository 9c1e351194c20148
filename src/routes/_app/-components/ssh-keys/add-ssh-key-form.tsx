import { Button, Group, Stack } from '@mantine/core';
import { revalidateLogic } from '@tanstack/react-form';
import { useMutation } from '@tanstack/react-query';
import { ApiError } from '../../../../api/client';
import { SSH_KEY_NAME_MAX, createSshKeyBody, type SshKey } from '../../../../api/contract/ssh-keys';
import { useAppForm, withoutServerError, withServerError } from '../../../../components/form';
import { FormError } from '../../../../components/form-error';
import { TextareaField } from '../../../../components/textarea-field';
import { sshKeyMutations } from '../../../../queries/ssh-keys';
import { sshKeyErrorLeads } from './ssh-key-labels';

interface AddSshKeyFormProps {
  onAdded: (key: SshKey, message: string) => void;
  onCancel: () => void;
}

/**
 * A name and a pasted public key. The server checks the key (its type, its size, that it is not
 * a private key): what it refuses is shown at the key, and what was typed stays.
 */
export function AddSshKeyForm({ onAdded, onCancel }: AddSshKeyFormProps) {
  const create = useMutation(sshKeyMutations.create());
  const form = useAppForm({
    defaultValues: { name: '', publicKey: '' },
    validationLogic: revalidateLogic(),
    validators: { onDynamic: createSshKeyBody },
    listeners: {
      // An edit clears the server's message at its field, and no other.
      onChange: ({ formApi, fieldApi }) => {
        formApi.setFieldMeta(fieldApi.name, withoutServerError);
      },
    },
    onSubmit: async ({ value }) => {
      try {
        // Resolves once the list holds the new key (the invalidation is awaited).
        const { data, message } = await create.mutateAsync({
          name: value.name.trim(),
          publicKey: value.publicKey.trim(),
        });
        onAdded(data, message);
      } catch (error) {
        if (!(error instanceof ApiError)) return;
        for (const { field, message } of error.errors) {
          if (field === 'name' || field === 'publicKey') {
            form.setFieldMeta(field, withServerError(message));
          }
        }
      }
    },
  });

  const fieldErrors = create.error instanceof ApiError && create.error.errors.length > 0;
  return (
    <form.AppForm>
      <form.Form aria-label="Add SSH key">
        <Stack gap="md">
          <form.AppField name="name">
            {(field) => (
              <field.TextField
                label="Name"
                description="Which computer or person it belongs to, e.g. “Work laptop”"
                inputWrapperOrder={['label', 'input', 'description', 'error']}
                maxLength={SSH_KEY_NAME_MAX}
                autoComplete="off"
                required
                data-autofocus
              />
            )}
          </form.AppField>
          <form.AppField name="publicKey">
            {() => (
              <TextareaField
                label="Public key"
                description="The contents of your .pub file, e.g. ~/.ssh/id_ed25519.pub: ssh-ed25519 AAAA… you@laptop"
                inputWrapperOrder={['label', 'input', 'description', 'error']}
                placeholder="ssh-ed25519 AAAA…"
                autosize
                minRows={4}
                maxRows={8}
                spellCheck={false}
                autoComplete="off"
                styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                required
              />
            )}
          </form.AppField>
          {/* A refusal that names a field is shown at it; anything else here. */}
          {!fieldErrors && <FormError title={sshKeyErrorLeads.create} error={create.error} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
            <form.SubmitButton fullWidth={false}>Add key</form.SubmitButton>
          </Group>
        </Stack>
      </form.Form>
    </form.AppForm>
  );
}
