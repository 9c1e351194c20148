import { Alert, Button, Group, Text } from '@mantine/core';
import { IconPlayerPause, IconPlayerPlay } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../../../../api/client';
import { resellerMessages, type CustomerDetails } from '../../../../api/contract/reseller';
import { ConfirmDialog } from '../../../../components/confirm-dialog';
import { DangerZone } from '../../../../components/danger-zone';
import { formatDateTime } from '../../../../components/date-format';
import { withLead } from '../../../../components/error-text';
import { notify } from '../../../../components/notify';
import { TypedNameConfirmDialog } from '../../../../components/typed-name-confirm-dialog';
import { customerKeys, customerMutations } from '../../../../queries/customers';
import { customerErrorLeads } from './customer-texts';

/**
 * Runs a suspend or resume, then toasts the server's message. A 409 means the customer is not as
 * the page shows it (suspended or resumed meanwhile, or its VMs still changing): the question
 * asked no longer holds, so the dialog closes, the server's message is toasted as an error and
 * the page is read again. Any other failure stays in the dialog, to try again.
 */
function useStateChange(
  mutation: ReturnType<typeof customerMutations.suspend>,
  errorLead: string,
  fallback: string,
) {
  const queryClient = useQueryClient();
  const change = useMutation(mutation);
  return async (id: number) => {
    let message: string;
    try {
      message = await change.mutateAsync(id);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 409) throw error;
      notify(withLead(errorLead, error), { type: 'error' });
      await queryClient.invalidateQueries({ queryKey: customerKeys.all });
      return;
    }
    notify(message || fallback);
  };
}

/** Suspending the customer, apart from its figures and confirmed by typing its name. */
export function SuspendCustomerZone({ customer }: { customer: CustomerDetails }) {
  const [opened, setOpened] = useState(false);
  const suspend = useStateChange(
    customerMutations.suspend(),
    customerErrorLeads.suspendCustomer,
    resellerMessages.customerSuspended,
  );
  const { name } = customer;
  return (
    <>
      <DangerZone
        heading="Suspend this customer"
        description="Its VMs stop and its users and API tokens are shut out until you resume it. Nothing is deleted."
        actionLabel="Suspend"
        actionIcon={<IconPlayerPause size={16} aria-hidden />}
        onAction={() => setOpened(true)}
      />
      <TypedNameConfirmDialog
        opened={opened}
        name={name}
        title={`Suspend ${name}?`}
        confirmLabel="Suspend"
        busyLabel="Suspending..."
        errorLead={customerErrorLeads.suspendCustomer}
        onConfirm={() => suspend(customer.id)}
        onClose={() => setOpened(false)}
      >
        Its running virtual machines will be stopped. Its users will be signed out and will not be
        able to sign in, and its API tokens will stop working, until you resume it. Nothing is
        deleted: its virtual machines, networks, users and settings stay as they are.
      </TypedNameConfirmDialog>
    </>
  );
}

/** Over a suspended customer's page: since when, what it means, and the way back. */
export function SuspendedNotice({ customer }: { customer: CustomerDetails }) {
  const [opened, setOpened] = useState(false);
  const resume = useStateChange(
    customerMutations.resume(),
    customerErrorLeads.resumeCustomer,
    resellerMessages.customerResumed,
  );
  const { name, suspendedAt } = customer;
  return (
    <>
      <Alert
        color="orange"
        variant="light"
        icon={<IconPlayerPause aria-hidden />}
        title={
          suspendedAt
            ? `Suspended since ${formatDateTime(suspendedAt)}`
            : 'This customer is suspended'
        }
      >
        <Group justify="space-between" align="center" gap="sm">
          <Text size="sm" miw={0} style={{ flex: '1 1 16rem' }}>
            Its users cannot sign in, its API tokens are refused and its virtual machines are
            stopped.
          </Text>
          <Button
            variant="filled"
            leftSection={<IconPlayerPlay size={16} aria-hidden />}
            onClick={() => setOpened(true)}
          >
            Resume
          </Button>
        </Group>
      </Alert>
      <ConfirmDialog
        opened={opened}
        title={`Resume ${name}?`}
        confirmLabel="Resume"
        confirmColor="green"
        busyLabel="Resuming..."
        errorLead={customerErrorLeads.resumeCustomer}
        onConfirm={() => resume(customer.id)}
        onClose={() => setOpened(false)}
      >
        Its users will be able to sign in again and its API tokens will work again. The virtual
        machines that were running when it was suspended will start again.
      </ConfirmDialog>
    </>
  );
}
