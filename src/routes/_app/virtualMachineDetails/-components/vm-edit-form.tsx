import { Button, Group, Stack } from '@mantine/core';
import { revalidateLogic, useStore } from '@tanstack/react-form';
import { useMutation } from '@tanstack/react-query';
import { z } from '../../../../api/contract/zod';
import {
  vmMessages,
  vmNameSchema,
  type EditVmBody,
  type VmDetails,
} from '../../../../api/contract/vms';
import { useAppForm } from '../../../../components/form';
import { FormError } from '../../../../components/form-error';
import { notify } from '../../../../components/notify';
import { vmMutations } from '../../../../queries/vms';
import { TeamSelectField } from './team-select-field';

export const vmEditMessages = { failed: 'Failed to update VM' } as const;

const editFormSchema = z.object({ name: vmNameSchema, teamId: z.nullable(z.number()) });
type Values = { name: string; teamId: number | null };

/** Only what differs from the stored VM, the name trimmed (spec section 5). */
export function changedFields(values: Values, stored: Values): EditVmBody {
  const name = values.name.trim();
  return {
    ...(name !== stored.name ? { name } : {}),
    ...(values.teamId !== stored.teamId ? { teamId: values.teamId } : {}),
  };
}

interface VmEditFormProps {
  id: number;
  details: VmDetails;
  onCancel: () => void;
}

/** VM Name and Team Assignment, with Save Changes (once something changed) and Cancel. */
export function VmEditForm({ id, details, onCancel }: VmEditFormProps) {
  const vm = details.virtualMachine;
  const stored: Values = { name: vm.name, teamId: vm.teamId };
  const edit = useMutation(vmMutations.edit());
  const form = useAppForm({
    defaultValues: stored,
    validationLogic: revalidateLogic(),
    validators: { onDynamic: editFormSchema },
    onSubmit: async ({ value, formApi }) => {
      const changes = changedFields(value, stored);
      if (Object.keys(changes).length === 0) {
        // Only blanks around the name differed.
        formApi.reset(stored);
        notify(vmMessages.noChanges, { type: 'info' });
        return;
      }
      try {
        // Resolves once the details and lists have reloaded; the screen then starts the form
        // afresh from the saved values.
        await edit.mutateAsync({ id, ...changes });
      } catch {
        notify(vmEditMessages.failed, { type: 'error' });
        return; // the reason shows inline; the values stay as typed
      }
      notify(vmMessages.updated);
    },
  });
  const unchanged = useStore(form.store, (state) => state.isDefaultValue);

  return (
    <form.AppForm>
      <form.Form aria-label="Edit virtual machine">
        <Stack gap="md">
          <form.AppField name="name">
            {(field) => <field.TextField label="VM Name" required autoComplete="off" />}
          </form.AppField>
          <form.AppField name="teamId">
            {() => (
              <TeamSelectField
                initialTeam={
                  vm.teamId !== null
                    ? { id: vm.teamId, name: vm.teamName ?? `Team ${vm.teamId}` }
                    : null
                }
              />
            )}
          </form.AppField>
          <FormError title={vmEditMessages.failed} error={edit.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
            <form.SubmitButton fullWidth={false} disabled={unchanged}>
              Save Changes
            </form.SubmitButton>
          </Group>
        </Stack>
      </form.Form>
    </form.AppForm>
  );
}
