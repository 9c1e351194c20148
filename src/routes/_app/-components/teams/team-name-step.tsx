import { Group, Paper, Stack, Title } from '@mantine/core';
import { revalidateLogic } from '@tanstack/react-form';
import { useMutation } from '@tanstack/react-query';
import { z } from '../../../../api/contract/zod';
import { teamNameSchema } from '../../../../api/contract/teams';
import { managementErrorLeads } from '../../../../components/error-text';
import { useAppForm } from '../../../../components/form';
import { FormError } from '../../../../components/form-error';
import { teamMutations } from '../../../../queries/teams';

const nameSchema = z.object({ name: teamNameSchema });

interface TeamNameStepProps {
  /** The team being edited, or none yet. */
  teamId: number | undefined;
  savedName: string | undefined;
  /** The name is saved (the team created, or renamed if changed): on to the next page. */
  onDone: (teamId: number) => Promise<void> | void;
}

/** The wizard's first page: the Team Details card. Next creates the team, or renames it. */
export function TeamNameStep({ teamId, savedName, onDone }: TeamNameStepProps) {
  const create = useMutation(teamMutations.create());
  const update = useMutation(teamMutations.update());
  const form = useAppForm({
    defaultValues: { name: savedName ?? '' },
    validationLogic: revalidateLogic(),
    validators: { onDynamic: nameSchema },
    onSubmit: async ({ value }) => {
      const name = teamNameSchema.parse(value.name);
      try {
        if (teamId === undefined) {
          const { teamId: newId } = await create.mutateAsync({ name });
          await onDone(newId);
          return;
        }
        if (name !== savedName) await update.mutateAsync({ teamId, name });
      } catch {
        return; // shown inline by FormError; the name stays as typed
      }
      await onDone(teamId);
    },
  });

  return (
    <Paper withBorder radius="md" shadow="xs" p="lg" maw={560}>
      <form.AppForm>
        <form.Form aria-label="Team Details">
          <Stack gap="md">
            <Title order={3} size="h4">
              Team Details
            </Title>
            <form.AppField name="name">
              {(field) => <field.TextField label="Team Name" required maxLength={100} autoFocus />}
            </form.AppField>
            <FormError title={managementErrorLeads.createTeam} error={create.error} />
            <FormError title={managementErrorLeads.updateTeam} error={update.error} />
            <Group justify="flex-end">
              <form.SubmitButton fullWidth={false}>Next</form.SubmitButton>
            </Group>
          </Stack>
        </form.Form>
      </form.AppForm>
    </Paper>
  );
}
