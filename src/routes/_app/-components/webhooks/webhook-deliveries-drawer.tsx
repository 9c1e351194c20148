import { Button, Drawer, Group, Stack, Text } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { WEBHOOK_DELIVERY_LOG_LIMIT, type Webhook } from '../../../../api/contract/webhooks';
import { DataTable } from '../../../../components/data-table/data-table';
import { DELIVERY_LOG_POLL_MS, webhookQueries } from '../../../../queries/webhooks';
import { StateCell } from './webhook-columns';
import { webhookDeliveryColumns } from './webhook-delivery-columns';
import { eventTypesLabel } from './webhook-event-types';
import { webhookErrorLeads, webhookTexts } from './webhook-labels';

interface WebhookDeliveriesDrawerProps {
  /** The webhook whose log is shown; it outlives `opened` so the drawer does not empty as it closes. */
  webhook: Webhook | null;
  opened: boolean;
  onClose: () => void;
  onTest: (webhook: Webhook) => void;
  testing: boolean;
}

/** A webhook's latest delivery attempts, read again every few seconds while open. */
export function WebhookDeliveriesDrawer({
  webhook,
  opened,
  onClose,
  onTest,
  testing,
}: WebhookDeliveriesDrawerProps) {
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      title="Delivery log"
      position="right"
      // Room for the log's seven columns beside the page (a phone gets the whole width).
      size={900}
      styles={{ title: { fontWeight: 600, fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      {webhook && <DeliveryLog webhook={webhook} onTest={onTest} testing={testing} />}
    </Drawer>
  );
}

function DeliveryLog({
  webhook,
  onTest,
  testing,
}: Pick<WebhookDeliveriesDrawerProps, 'onTest' | 'testing'> & { webhook: Webhook }) {
  const deliveries = useQuery(webhookQueries.deliveries(webhook.id));
  // Only a refresh asked for dims the rows: the poll every few seconds would make them blink.
  const [refreshing, setRefreshing] = useState(false);
  return (
    <Stack gap="md">
      <Stack gap={6}>
        <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
          {webhook.url}
        </Text>
        <Text size="sm" c="dimmed">
          {eventTypesLabel(webhook.events)}
        </Text>
        <Group justify="space-between" gap="sm">
          <StateCell webhook={webhook} />
          <Button
            variant="light"
            leftSection={<IconSend size={16} aria-hidden />}
            onClick={() => onTest(webhook)}
            loading={testing}
            disabled={webhook.disabledAt !== null}
          >
            {webhookTexts.sendTest}
          </Button>
        </Group>
      </Stack>
      <DataTable
        title="Deliveries"
        description={`The latest ${WEBHOOK_DELIVERY_LOG_LIMIT} attempts, newest first; read again every ${DELIVERY_LOG_POLL_MS / 1000} seconds.`}
        columns={webhookDeliveryColumns}
        data={deliveries.data}
        getRowId={(row) => String(row.id)}
        isPending={deliveries.isPending}
        isFetching={refreshing}
        // Rows already shown stay on a failed refresh (the query cache toasts it).
        error={deliveries.data ? null : deliveries.error}
        errorTitle={webhookErrorLeads.fetchDeliveries}
        onRefresh={() => {
          setRefreshing(true);
          void deliveries.refetch().finally(() => setRefreshing(false));
        }}
        emptyMessage="No deliveries yet. Send a test event to try the URL."
      />
    </Stack>
  );
}
