import { Radio, Stack } from '@mantine/core';
import { webhookScopes, type WebhookScope } from '../../../../api/contract/webhooks';
import { useBoundField } from '../../../../components/bound-field';
import { webhookScopeDescriptions, webhookScopeLabels } from './webhook-labels';

/** Whose events a reseller's staff's webhook sends: the staff company's own, or every customer's. */
export function WebhookScopeField() {
  const { field, value, error } = useBoundField<WebhookScope>();
  return (
    <Radio.Group
      label="Events of"
      name={field.name}
      value={value}
      onChange={(next) => field.handleChange(next as WebhookScope)}
      error={error}
    >
      <Stack gap="xs" mt="xs">
        {webhookScopes.map((scope) => (
          <Radio
            key={scope}
            value={scope}
            label={webhookScopeLabels[scope]}
            description={webhookScopeDescriptions[scope]}
            data-field={scope === value ? field.name : undefined}
          />
        ))}
      </Stack>
    </Radio.Group>
  );
}
