import { z } from '../../../../api/contract/zod';
import { Badge, Group, Paper, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { revalidateLogic, useStore } from '@tanstack/react-form';
import { useMutation } from '@tanstack/react-query';
import { editUserBody, userMessages, type UserDetails } from '../../../../api/contract/users';
import { managementErrorLeads } from '../../../../components/error-text';
import { useAppForm } from '../../../../components/form';
import { FormError } from '../../../../components/form-error';
import { notify } from '../../../../components/notify';
import { userMutations } from '../../../../queries/users';

const namesSchema = z.pick(editUserBody, { firstName: true, lastName: true });

const createdFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'long' });
export const formatCreated = (date: Date) => createdFormat.format(date);

interface UserDetailsCardProps {
  user: UserDetails;
  /** The user themself or an Admin; anyone else reads the names only. */
  canEdit: boolean;
}

/** Names (editable when allowed), e-mail and creation date of one user. */
export function UserDetailsCard({ user, canEdit }: UserDetailsCardProps) {
  return (
    <Paper withBorder radius="md" shadow="xs" p="lg">
      <Stack gap="md">
        <Group justify="space-between" gap="sm">
          <Title order={3} size="h4">
            User Details
          </Title>
          {!user.activated && (
            <Badge color="yellow" variant="light">
              Invitation pending
            </Badge>
          )}
        </Group>
        {canEdit ? (
          <NamesForm user={user} />
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="First Name" value={user.firstName} readOnly variant="filled" />
            <TextInput label="Last Name" value={user.lastName} readOnly variant="filled" />
            <ReadOnlyFields user={user} />
          </SimpleGrid>
        )}
      </Stack>
    </Paper>
  );
}

function ReadOnlyFields({ user }: { user: UserDetails }) {
  return (
    <>
      <TextInput label="Email" value={user.email} readOnly variant="filled" />
      <TextInput label="Created" value={formatCreated(user.createdAt)} readOnly variant="filled" />
    </>
  );
}

function NamesForm({ user }: { user: UserDetails }) {
  const edit = useMutation(userMutations.edit());
  const form = useAppForm({
    defaultValues: { firstName: user.firstName, lastName: user.lastName },
    validationLogic: revalidateLogic(),
    validators: { onDynamic: namesSchema },
    onSubmit: async ({ value, formApi }) => {
      const names = namesSchema.parse(value);
      try {
        // Resolves once the user, the lists and the sidebar's name have reloaded.
        await edit.mutateAsync({ id: user.id, ...names });
      } catch {
        return; // shown inline by FormError; the names stay as typed
      }
      formApi.reset(names);
      notify(userMessages.updated);
    },
  });
  const unchanged = useStore(form.store, (state) => state.isDefaultValue);

  return (
    <form.AppForm>
      <form.Form aria-label="User Details">
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <form.AppField name="firstName">
              {(field) => <field.TextField label="First Name" autoComplete="given-name" required />}
            </form.AppField>
            <form.AppField name="lastName">
              {(field) => <field.TextField label="Last Name" autoComplete="family-name" required />}
            </form.AppField>
            <ReadOnlyFields user={user} />
          </SimpleGrid>
          <FormError title={managementErrorLeads.editUser} error={edit.error} />
          <Group justify="flex-end">
            <form.SubmitButton fullWidth={false} disabled={unchanged}>
              Save
            </form.SubmitButton>
          </Group>
        </Stack>
      </form.Form>
    </form.AppForm>
  );
}
