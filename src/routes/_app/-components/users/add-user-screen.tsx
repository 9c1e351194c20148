import { Group, Loader, Paper, Select, Stack } from '@mantine/core';
import { revalidateLogic } from '@tanstack/react-form';
import { useMutation, useQuery } from '@tanstack/react-query';
import { z } from '../../../../api/contract/zod';
import { roleMessages } from '../../../../api/contract/roles';
import { createUserBody, userMessages } from '../../../../api/contract/users';
import { managementErrorLeads, withLead } from '../../../../components/error-text';
import { useAppForm } from '../../../../components/form';
import { FormError } from '../../../../components/form-error';
import { notify } from '../../../../components/notify';
import { PageHeader } from '../../../../components/page-header';
import { roleQueries } from '../../../../queries/roles';
import { userMutations } from '../../../../queries/users';
import { useBoundField } from '../../../../components/bound-field';
import { DROPDOWN_DEFAULTS } from '../../../../components/dropdown';
import { TeamsPicker } from '../../../../components/team-picker';
import { useGoBackToUsers } from '../../../../components/use-go-back';

// The contract as the form holds it: the role is null until one is chosen (the contract would call
// that an unknown role; the form says it is missing), and teams come as numbers from their list.
const addUserFormSchema = z.extend(createUserBody, {
  teamIds: z.array(z.number()),
  roleId: z
    .nullable(z.number())
    .check(z.refine((value) => value !== null, roleMessages.roleRequired)),
});
type Values = z.input<typeof addUserFormSchema>;

export function AddUserScreen() {
  const goBack = useGoBackToUsers();
  const create = useMutation(userMutations.create());

  const form = useAppForm({
    defaultValues: { email: '', teamIds: [], roleId: null } as Values,
    validationLogic: revalidateLogic(),
    validators: { onDynamic: addUserFormSchema },
    onSubmit: async ({ value }) => {
      const body = createUserBody.parse(value);
      try {
        await create.mutateAsync(body);
      } catch {
        return; // shown inline by FormError; the values stay as typed
      }
      notify(`${userMessages.created} ${body.email}`);
      goBack();
    },
  });

  return (
    <>
      <PageHeader title="Add User" withBack onBack={goBack} />
      <Paper withBorder radius="md" shadow="xs" p="lg" maw={560}>
        <form.AppForm>
          <form.Form aria-label="Add User">
            <Stack gap="md">
              <form.AppField name="email">
                {(field) => (
                  <field.TextField
                    label="Email Address"
                    type="email"
                    autoComplete="off"
                    autoFocus
                    required
                  />
                )}
              </form.AppField>
              <form.AppField name="teamIds">{() => <TeamsField />}</form.AppField>
              <form.AppField name="roleId">{() => <RoleField />}</form.AppField>
              <FormError title={managementErrorLeads.createUser} error={create.error} />
              <Group justify="flex-end">
                <form.SubmitButton fullWidth={false}>Send Invite Email</form.SubmitButton>
              </Group>
            </Stack>
          </form.Form>
        </form.AppForm>
      </Paper>
    </>
  );
}

function TeamsField() {
  const { field, value, error } = useBoundField<number[]>();
  return (
    <TeamsPicker
      label="Teams"
      name={field.name}
      value={value}
      onChange={field.handleChange}
      onBlur={field.handleBlur}
      error={error}
    />
  );
}

function RoleField() {
  const { field, value, error } = useBoundField<number | null>();
  const roles = useQuery(roleQueries.list());
  return (
    <Select<number>
      {...DROPDOWN_DEFAULTS}
      label="User Role"
      required
      withAsterisk={false}
      name={field.name}
      data-field={field.name}
      data={roles.data?.map((role) => ({ value: role.id, label: role.name })) ?? []}
      value={value}
      onChange={field.handleChange}
      onBlur={field.handleBlur}
      allowDeselect={false}
      disabled={roles.isPending}
      rightSection={roles.isPending ? <Loader size="xs" aria-label="Loading roles" /> : undefined}
      // What the chosen role may do, under the field.
      description={roles.data?.find((role) => role.id === value)?.info}
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      error={
        error ?? (roles.error ? withLead(managementErrorLeads.fetchRoles, roles.error) : undefined)
      }
    />
  );
}
