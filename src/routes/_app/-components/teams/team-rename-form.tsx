import { Group, Paper, Stack } from '@mantine/core';
import { useStore } from '@tanstack/react-form';
import { useMutation } from '@tanstack/react-query';
import { z } from '../../../../api/contract/zod';
import { teamMessages, teamNameSchema } from '../../../../api/contract/teams';
import { managementErrorLeads } from '../../../../components/error-text';
import { useAppForm } from '../../../../components/form';
import { FormError } from '../../../../components/form-error';
import { notify } from '../../../../components/notify';
import { teamMutations } from '../../../../queries/teams';

const renameSchema = z.object({ name: teamNameSchema });

/**
 * The team page's Team Name with Save. Save is offered once the name differs from the saved one
 * and is valid, so the rule's message shows as soon as the field is emptied. Read-only for a role
 * that may not rename the team.
 */
export function TeamRenameForm({
  teamId,
  name,
  readOnly = false,
}: {
  teamId: number;
  name: string;
  readOnly?: boolean;
}) {
  const update = useMutation(teamMutations.update());
  const form = useAppForm({
    defaultValues: { name },
    validators: { onChange: renameSchema },
    onSubmit: async ({ value, formApi }) => {
      const newName = teamNameSchema.parse(value.name);
      try {
        await update.mutateAsync({ teamId, name: newName });
      } catch {
        return; // shown inline by FormError; the name stays as typed
      }
      formApi.reset({ name: newName });
      notify(teamMessages.updated);
    },
  });
  const changed = useStore(form.store, (state) => state.values.name.trim() !== name);
  const canSubmit = useStore(form.store, (state) => state.canSubmit);

  return (
    <Paper withBorder radius="md" shadow="xs" p="lg" mb="lg">
      <form.AppForm>
        <form.Form aria-label="Team Name">
          <Stack gap="md">
            <form.AppField name="name">
              {(field) => (
                <field.TextField label="Team Name" required maxLength={100} readOnly={readOnly} />
              )}
            </form.AppField>
            <FormError title={managementErrorLeads.updateTeam} error={update.error} />
            {!readOnly && (
              <Group justify="flex-end">
                <form.SubmitButton fullWidth={false} disabled={!changed || !canSubmit}>
                  Save
                </form.SubmitButton>
              </Group>
            )}
          </Stack>
        </form.Form>
      </form.AppForm>
    </Paper>
  );
}
