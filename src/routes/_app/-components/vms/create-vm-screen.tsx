import { Alert, Group, List, Paper, Stack } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useStore } from '@tanstack/react-form';
import { useMutation } from '@tanstack/react-query';
import { useNavigate, useRouter } from '@tanstack/react-router';
import { useCallback, useState } from 'react';
import { vmMessages } from '../../../../api/contract/vms';
import { ApiError } from '../../../../api/client';
import { fieldErrorMessages, vmErrorLeads, withLead } from '../../../../components/error-text';
import { useAppForm } from '../../../../components/form';
import { notify } from '../../../../components/notify';
import { PageHeader } from '../../../../components/page-header';
import { vmMutations } from '../../../../queries/vms';
import { useCreateVmCatalog } from './create-vm-catalog';
import { CreateVmCascade } from './create-vm-cascade';
import { CreateVmRoomNote } from './create-vm-room-note';
import { CreateVmSshKeys } from './create-vm-ssh-keys';
import {
  after,
  createVmDefaults,
  drawnTheSame,
  toCreateBody,
  type CascadeField,
} from './create-vm-form';

/** `/createVirtualMachine`: name, then the selection cascade, then Create. */
export function CreateVmScreen() {
  const router = useRouter();
  const navigate = useNavigate();
  const create = useMutation(vmMutations.create());
  // The local rule's message shows from the first submit on, and follows the values after it.
  const [submitted, setSubmitted] = useState(false);

  const form = useAppForm({
    defaultValues: createVmDefaults,
    onSubmit: async ({ value }) => {
      setSubmitted(true);
      const { body } = toCreateBody(value, catalog.providerId);
      if (!body) return;
      let message: string;
      try {
        ({ message } = await create.mutateAsync(body));
      } catch {
        return; // shown under the button; the choices stay
      }
      notify(message || vmMessages.created);
      void navigate({ to: '/virtualMachines' });
    },
  });
  // Until the first submit, `values.name` may lag the field: read only whether it is filled.
  const values = useStore(form.store, (state) => state.values, drawnTheSame(submitted));
  const catalog = useCreateVmCatalog(values);
  const localProblem = submitted ? toCreateBody(values, catalog.providerId).problem : null;

  const choose = useCallback(
    (field: CascadeField, value: number | null) => {
      form.setFieldValue(field, value);
      for (const later of after(field)) form.setFieldValue(later, null);
    },
    [form],
  );

  return (
    <>
      <PageHeader title="Create Virtual Machine" withBack onBack={() => router.history.back()} />
      <Paper withBorder radius="md" shadow="xs" p="lg" maw={760}>
        <form.AppForm>
          <form.Form aria-label="Create Virtual Machine">
            <Stack gap="md">
              <form.AppField name="name">
                {(field) => (
                  <field.TextField
                    label="Name"
                    description="Copies get a number after the name"
                    required
                    autoFocus
                    autoComplete="off"
                  />
                )}
              </form.AppField>
              <CreateVmCascade
                values={values}
                catalog={catalog}
                choose={choose}
                onPublicIpChange={(on) => form.setFieldValue('allocatePublicIp', on)}
              />
              <CreateVmSshKeys
                sshKeyIds={values.sshKeyIds}
                generateKeyPair={values.generateKeyPair}
                onKeysChange={(ids) => form.setFieldValue('sshKeyIds', ids)}
                onGenerateChange={(on) => form.setFieldValue('generateKeyPair', on)}
                error={localProblem === vmMessages.noKeyChosen ? localProblem : null}
              />
              <CreateVmRoomNote values={values} sizes={catalog.sizes.data} />
              <Group justify="flex-end">
                <form.SubmitButton fullWidth={false}>Create Virtual Machine</form.SubmitButton>
              </Group>
              <CreateErrors localProblem={localProblem} error={create.error} />
            </Stack>
          </form.Form>
        </form.AppForm>
      </Paper>
    </>
  );
}

/**
 * Under the submit button (spec section 2): the local rule's message and the server's answer
 * together. The server's message replaces the lead when there is one.
 */
function CreateErrors({
  localProblem,
  error,
}: {
  localProblem: string | null;
  error: Error | null;
}) {
  if (!localProblem && !error) return null;
  const details = fieldErrorMessages(error);
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden />} role="alert">
      <Stack gap={4}>
        {localProblem && <div>{localProblem}</div>}
        {error && (
          <div>
            {/* The server's message replaces the lead (spec section 8); without one, the lead. */}
            {error instanceof ApiError && error.status !== 0
              ? error.message
              : withLead(vmErrorLeads.createVm, error)}
          </div>
        )}
        {details.length > 0 && (
          <List size="sm">
            {details.map((message) => (
              <List.Item key={message}>{message}</List.Item>
            ))}
          </List>
        )}
      </Stack>
    </Alert>
  );
}
