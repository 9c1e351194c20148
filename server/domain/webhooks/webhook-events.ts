import type { Tx } from '../../db/client';
import type { webhookSubscriptions } from '../../db/webhook-schema';
import type { Actor } from '../events/actor';
import { recordEvent } from '../events/record';

/**
 * A webhook's creation, deletion or disabling, in the company's log (Admins see it). The log and
 * the other webhooks name it by its URL's origin only: a path or query may carry the receiver's
 * own token.
 */
export async function recordWebhookEvent(
  tx: Tx,
  webhook: typeof webhookSubscriptions.$inferSelect,
  action: 'webhook.create' | 'webhook.delete' | 'webhook.disable',
  input: { at: Date; actor: Actor; detail?: Record<string, string | number> },
): Promise<void> {
  await recordEvent(tx, {
    companyId: webhook.companyId,
    actor: input.actor,
    subject: { type: 'webhook', id: webhook.id, name: new URL(webhook.url).origin },
    action,
    outcome: 'succeeded',
    detail: {
      events: webhook.events.join(', '),
      // Said only when it is not the company's own events that it sends.
      ...(webhook.scope === 'customers' ? { scope: webhook.scope } : {}),
      ...input.detail,
    },
    at: input.at,
  });
}
