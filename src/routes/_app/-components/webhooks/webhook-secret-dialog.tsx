import { Text } from '@mantine/core';
import { SecretOnceDialog } from '../../../../components/secret-once-dialog';
import type { CreatedWebhook } from './create-webhook-form';
import { eventTypesLabel } from './webhook-event-types';
import { webhookScopeLabels } from './webhook-labels';

interface WebhookSecretDialogProps {
  /** The webhook just added, with its secret; null when there is none to show. */
  created: CreatedWebhook | null;
  onClose: () => void;
}

/** A new webhook's signing secret, shown this once: the server keeps it sealed and never answers it again. */
export function WebhookSecretDialog({ created, onClose }: WebhookSecretDialogProps) {
  const webhook = created?.webhook;
  return (
    <SecretOnceDialog
      secret={created?.secret ?? null}
      title="Copy the webhook's signing secret"
      secretLabel="Signing secret"
      copyLabel="Copy secret"
      copiedMessage="Signing secret copied to clipboard"
      advice={
        <>
          Your receiver needs it to check the Launchpad-Signature header of each delivery: keep it
          with the receiver's configuration. To change it, add a new webhook and delete this one.
        </>
      }
      summary={
        webhook && (
          <>
            <Text span fw={600}>
              {webhook.url}
            </Text>
            {[
              '',
              ...(webhook.scope === 'customers' ? [webhookScopeLabels.customers] : []),
              eventTypesLabel(webhook.events),
            ].join(' · ')}
          </>
        )
      }
      onClose={onClose}
    />
  );
}
