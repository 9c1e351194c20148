import { Button, Modal, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { WEBHOOKS_PER_COMPANY, type Webhook } from '../../../../api/contract/webhooks';
import { ConfirmDialog } from '../../../../components/confirm-dialog';
import { DataTable } from '../../../../components/data-table/data-table';
import { withLead } from '../../../../components/error-text';
import { notify } from '../../../../components/notify';
import { authQueries } from '../../../../queries/auth';
import { webhookMutations, webhookQueries } from '../../../../queries/webhooks';
import { CreateWebhookForm, type CreatedWebhook } from './create-webhook-form';
import { WebhookDeliveriesDrawer } from './webhook-deliveries-drawer';
import { webhookColumns } from './webhook-columns';
import { webhookErrorLeads, webhookTexts } from './webhook-labels';
import { WebhookSecretDialog } from './webhook-secret-dialog';
import { WebhooksEmptyState } from './webhooks-empty-state';

/**
 * The company's webhooks (Admins): add, test, read the delivery log, delete. A reseller's staff
 * Admins may also subscribe to all their customers' events, and see whose events each one sends.
 */
export function WebhooksSection() {
  const webhooks = useQuery(webhookQueries.list());
  const { data: auth } = useQuery(authQueries.check());
  const forReseller = Boolean(auth?.user.isAdmin && auth.user.isReseller);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  // Each target outlives its `opened` so a dialog does not go blank while it fades out.
  const [deleteTarget, setDeleteTarget] = useState<Webhook | null>(null);
  const [deleteOpened, setDeleteOpened] = useState(false);
  const [logTarget, setLogTarget] = useState<Webhook | null>(null);
  const [logOpened, setLogOpened] = useState(false);
  const remove = useMutation(webhookMutations.delete());
  const test = useMutation(webhookMutations.test());
  const testingId = test.isPending ? test.variables : undefined;
  const { mutate: runTest } = test;
  const sendTest = useCallback(
    (id: number) =>
      runTest(id, {
        onSuccess: ({ message }) => notify(message),
        onError: (error) => notify(withLead(webhookErrorLeads.test, error), { type: 'error' }),
      }),
    [runTest],
  );

  const columns = useMemo(
    () =>
      webhookColumns({
        onTest: (webhook) => sendTest(webhook.id),
        onShowLog: (webhook) => {
          setLogTarget(webhook);
          setLogOpened(true);
        },
        onDelete: (webhook) => {
          setDeleteTarget(webhook);
          setDeleteOpened(true);
        },
        testingId,
        showScope: forReseller,
      }),
    [sendTest, testingId, forReseller],
  );

  const empty = webhooks.data?.length === 0;
  // The log shows the row as the list has it now (disabled since, say).
  const logged = webhooks.data?.find((webhook) => webhook.id === logTarget?.id) ?? logTarget;

  return (
    <>
      <DataTable
        title="Webhooks"
        description={
          forReseller
            ? `Your company's events, or all your customers', sent to your URLs as they happen. Up to ${WEBHOOKS_PER_COMPANY}.`
            : `Your company's events, sent to your URLs as they happen. Up to ${WEBHOOKS_PER_COMPANY}.`
        }
        columns={columns}
        data={webhooks.data}
        getRowId={(row) => String(row.id)}
        isPending={webhooks.isPending}
        isFetching={webhooks.isFetching}
        // Rows already shown stay on a failed refresh (the query cache toasts it).
        error={webhooks.data ? null : webhooks.error}
        errorTitle={webhookErrorLeads.fetch}
        onRefresh={() => void webhooks.refetch()}
        onRowClick={(webhook) => {
          setLogTarget(webhook);
          setLogOpened(true);
        }}
        emptyState={<WebhooksEmptyState onAdd={() => setCreating(true)} />}
        // The empty state offers the same action.
        toolbar={
          !empty && (
            <Button
              leftSection={<IconPlus size={16} aria-hidden />}
              onClick={() => setCreating(true)}
            >
              {webhookTexts.add}
            </Button>
          )
        }
      />

      <Modal
        opened={creating}
        onClose={() => setCreating(false)}
        title={webhookTexts.add}
        centered
        closeOnClickOutside={false}
        size="lg"
      >
        <CreateWebhookForm
          canChooseScope={forReseller}
          onCreated={(result) => {
            setCreating(false);
            setCreated(result);
          }}
          onCancel={() => setCreating(false)}
        />
      </Modal>
      <WebhookSecretDialog created={created} onClose={() => setCreated(null)} />

      <WebhookDeliveriesDrawer
        webhook={logged}
        opened={logOpened}
        onClose={() => setLogOpened(false)}
        onTest={(webhook) => sendTest(webhook.id)}
        testing={logged !== null && testingId === logged.id}
      />

      <ConfirmDialog
        opened={deleteOpened}
        title="Delete this webhook?"
        errorLead={webhookErrorLeads.delete}
        onConfirm={async () => {
          if (!deleteTarget) return;
          // Resolves once the list has reloaded (the invalidation is awaited).
          const { message } = await remove.mutateAsync(deleteTarget.id);
          notify(message);
        }}
        onClose={() => setDeleteOpened(false)}
      >
        Nothing more is sent to{' '}
        <Text span fw={600} style={{ overflowWrap: 'anywhere' }}>
          {deleteTarget?.url}
        </Text>
        , and its delivery log is deleted with it. This cannot be undone.
      </ConfirmDialog>
    </>
  );
}
