import { Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { revalidateLogic } from '@tanstack/react-form';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { ApiError } from '../../../../api/client';
import {
  CUSTOMER_NAME_MAX,
  createCustomerBody,
  resellerMessages,
} from '../../../../api/contract/reseller';
import { useAppForm } from '../../../../components/form';
import { FormError } from '../../../../components/form-error';
import { notify } from '../../../../components/notify';
import { PageHeader } from '../../../../components/page-header';
import { useGoBack } from '../../../../components/use-go-back';
import { customerMutations } from '../../../../queries/customers';
import { customerErrorLeads } from './customer-texts';

/** The form's fields, named as the contract (and a 400's `errors`) name them. */
const FIELDS = ['name', 'logoUrl', 'admin.firstName', 'admin.lastName', 'admin.email'] as const;
type Field = (typeof FIELDS)[number];
const isField = (field: string): field is Field => (FIELDS as readonly string[]).includes(field);

type Values = {
  name: string;
  logoUrl: string;
  admin: Record<'firstName' | 'lastName' | 'email', string>;
};

/** The contract's rules, each on its field (the first message of each). */
function createCustomerErrors(values: Values) {
  const parsed = createCustomerBody.safeParse(values);
  if (parsed.success) return undefined;
  const fields: Partial<Record<Field, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path.join('.');
    if (isField(field)) fields[field] ??= issue.message;
  }
  return fields;
}

const EMPTY: Values = { name: '', logoUrl: '', admin: { firstName: '', lastName: '', email: '' } };

/** `/customers/new`: a customer company and its first Admin, who is invited by e-mail. */
export function CreateCustomerScreen() {
  const navigate = useNavigate();
  const goBack = useGoBack('/customers');
  const create = useMutation(customerMutations.create());

  const form = useAppForm({
    defaultValues: EMPTY,
    validationLogic: revalidateLogic(),
    validators: {
      onDynamic: ({ value }) => {
        const fields = createCustomerErrors(value);
        return fields ? { fields } : undefined;
      },
    },
    onSubmit: async ({ value }) => {
      let companyId: number;
      try {
        // Parsed, not only checked: trimmed, the e-mail in lower case, no logo when left blank.
        ({ companyId } = await create.mutateAsync(createCustomerBody.parse(value)));
      } catch (error) {
        // Shown inline by FormError; a 400's fields also at their fields. The values stay.
        if (!(error instanceof ApiError)) return;
        for (const { field, message } of error.errors) {
          if (!isField(field)) continue;
          // Marked as the form's own, so the next validation (an edit) clears it.
          form.setFieldMeta(field, (prev) => ({
            ...prev,
            errorMap: { ...prev.errorMap, onServer: message },
            errorSourceMap: { ...prev.errorSourceMap, onServer: 'form' },
          }));
        }
        return;
      }
      notify(resellerMessages.customerCreated);
      // In place of this form: Back from the new customer leads where the form was opened from.
      void navigate({
        to: '/customers/$customerId',
        params: { customerId: companyId },
        replace: true,
      });
    },
  });

  return (
    <>
      <PageHeader title="New customer" withBack onBack={goBack} />
      <Paper withBorder radius="md" shadow="xs" p="lg" maw={640}>
        <form.AppForm>
          <form.Form aria-label="New customer">
            <Stack gap="md">
              <Title order={3} size="h5">
                Company
              </Title>
              <form.AppField name="name">
                {(field) => (
                  <field.TextField
                    label="Company name"
                    maxLength={CUSTOMER_NAME_MAX}
                    autoComplete="off"
                    autoFocus
                    required
                  />
                )}
              </form.AppField>
              <form.AppField name="logoUrl">
                {(field) => (
                  <field.TextField
                    label="Logo URL (optional)"
                    description="The http(s) address of the company's logo, shown in its console"
                    inputWrapperOrder={['label', 'input', 'description', 'error']}
                    placeholder="https://example.com/logo.svg"
                    type="url"
                    inputMode="url"
                    autoComplete="off"
                    spellCheck={false}
                  />
                )}
              </form.AppField>

              <Stack gap={2} mt="xs">
                <Title order={3} size="h5">
                  First administrator
                </Title>
                <Text size="sm" c="dimmed">
                  Manages the company&apos;s console; invited by e-mail to activate their account.
                </Text>
              </Stack>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <form.AppField name="admin.firstName">
                  {(field) => <field.TextField label="First name" autoComplete="off" required />}
                </form.AppField>
                <form.AppField name="admin.lastName">
                  {(field) => <field.TextField label="Last name" autoComplete="off" required />}
                </form.AppField>
              </SimpleGrid>
              <form.AppField name="admin.email">
                {(field) => (
                  <field.TextField
                    label="Email"
                    type="email"
                    autoComplete="off"
                    spellCheck={false}
                    required
                  />
                )}
              </form.AppField>

              <FormError title={customerErrorLeads.createCustomer} error={create.error} />
              <Group justify="flex-end">
                <Button variant="default" onClick={goBack}>
                  Cancel
                </Button>
                <form.SubmitButton fullWidth={false}>Create customer</form.SubmitButton>
              </Group>
            </Stack>
          </form.Form>
        </form.AppForm>
      </Paper>
    </>
  );
}
