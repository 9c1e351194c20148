import { Button, Group, Stack } from '@mantine/core';
import { revalidateLogic } from '@tanstack/react-form';
import { useMutation } from '@tanstack/react-query';
import { ApiError } from '../../../../api/client';
import {
  createWebhookBody,
  WEBHOOK_URL_MAX,
  type Webhook,
  type WebhookScope,
} from '../../../../api/contract/webhooks';
import { useAppForm } from '../../../../components/form';
import { FormError } from '../../../../components/form-error';
import { webhookMutations } from '../../../../queries/webhooks';
import { EventTypesField } from './event-types-field';
import { ALL_EVENTS_LABEL } from './webhook-event-types';
import { WebhookScopeField } from './webhook-scope-field';
import { webhookErrorLeads, webhookTexts } from './webhook-labels';

interface CreateWebhookValues {
  url: string;
  events: string[];
  scope: WebhookScope;
}
type CreateWebhookField = keyof CreateWebhookValues;

/** The contract's rules, each on its field; the server alone judges HTTPS (an operator may allow HTTP). */
function createWebhookErrors(values: CreateWebhookValues) {
  const parsed = createWebhookBody.safeParse(values);
  if (parsed.success) return undefined;
  const fields: Partial<Record<CreateWebhookField, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if ((field === 'url' || field === 'events' || field === 'scope') && !fields[field]) {
      fields[field] = issue.message;
    }
  }
  return fields;
}

/** The server names the wire's fields; an item of the list by its index (`events.0`). */
const formFieldOf = (field: string): CreateWebhookField | undefined => {
  if (field === 'url' || field === 'scope') return field;
  return field.startsWith('events') ? 'events' : undefined;
};

export interface CreatedWebhook {
  webhook: Webhook;
  secret: string;
}

interface CreateWebhookFormProps {
  /** A reseller's staff Admin chooses whose events: the company's own, or all its customers'. */
  canChooseScope: boolean;
  onCreated: (created: CreatedWebhook) => void;
  onCancel: () => void;
}

/** The URL and event types of a new webhook; its secret comes with the answer. */
export function CreateWebhookForm({ canChooseScope, onCreated, onCancel }: CreateWebhookFormProps) {
  const create = useMutation(webhookMutations.create());
  const form = useAppForm({
    defaultValues: { url: '', events: [], scope: 'company' } as CreateWebhookValues,
    validationLogic: revalidateLogic(),
    validators: {
      onDynamic: ({ value }) => {
        const fields = createWebhookErrors(value);
        return fields ? { fields } : undefined;
      },
    },
    onSubmit: async ({ value }) => {
      try {
        // Resolves once the list holds the new webhook (the invalidation is awaited).
        // Parsed, not only checked: the URL trimmed, the types as the contract names them. Only
        // those who may choose send a scope; the server's default is the company's own events.
        const { scope, ...body } = createWebhookBody.parse(value);
        onCreated(await create.mutateAsync(canChooseScope ? { ...body, scope } : body));
      } catch (error) {
        // Shown inline by FormError; a 400's fields also at their fields. The values stay.
        if (!(error instanceof ApiError)) return;
        for (const { field, message } of error.errors) {
          const target = formFieldOf(field);
          if (!target) continue;
          // Marked as the form's own, so the next validation (an edit) clears it.
          form.setFieldMeta(target, (prev) => ({
            ...prev,
            errorMap: { ...prev.errorMap, onServer: message },
            errorSourceMap: { ...prev.errorSourceMap, onServer: 'form' },
          }));
        }
      }
    },
  });

  return (
    <form.AppForm>
      <form.Form aria-label={webhookTexts.add}>
        <Stack gap="md">
          <form.AppField name="url">
            {(field) => (
              <field.TextField
                label="URL"
                description="An HTTPS address of yours that accepts POST requests"
                inputWrapperOrder={['label', 'input', 'description', 'error']}
                placeholder="https://example.com/hooks/launchpad"
                type="url"
                inputMode="url"
                maxLength={WEBHOOK_URL_MAX}
                autoComplete="off"
                spellCheck={false}
                required
                data-autofocus
              />
            )}
          </form.AppField>
          {canChooseScope && (
            <form.AppField name="scope">{() => <WebhookScopeField />}</form.AppField>
          )}
          <form.AppField name="events">
            {() => (
              <EventTypesField
                description={`Choose ${ALL_EVENTS_LABEL} to receive every event, including types added later`}
              />
            )}
          </form.AppField>
          <FormError title={webhookErrorLeads.create} error={create.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
            <form.SubmitButton fullWidth={false}>{webhookTexts.add}</form.SubmitButton>
          </Group>
        </Stack>
      </form.Form>
    </form.AppForm>
  );
}
