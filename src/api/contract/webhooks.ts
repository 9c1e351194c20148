import { z } from './zod';
import { activityActions } from './activity';
import { emptyEnvelope, envelope, idSchema } from './envelope';

/**
 * Webhooks (company Admins): a subscription POSTs each of the company's events it wants, as
 * `GET /activity/list` answers it, signed with the subscription's secret (docs/webhooks.md).
 */

export const WEBHOOK_URL_MAX = 2000;
/** Every event, those of actions added later too. */
export const ALL_EVENTS = '*';
/** Each one is a queue the delivery worker serves: a company may have this many at most. */
export const WEBHOOKS_PER_COMPANY = 20;
/** How many deliveries `GET /webhooks/deliveries/:id` answers, newest first. */
export const WEBHOOK_DELIVERY_LOG_LIMIT = 100;

export const webhookMessages = {
  urlRequired: 'URL is required',
  urlTooLong: `URL must not exceed ${WEBHOOK_URL_MAX} characters`,
  urlInvalid: 'Enter an absolute URL such as https://example.com/hooks/launchpad',
  urlCredentials: 'The URL must not hold a user name or password',
  httpsRequired: 'The URL must use HTTPS',
  eventsRequired: 'Choose at least one event type, or "*" for all',
  eventUnknown: 'Unknown event type',
  allAlone: '"*" stands for every event type and comes alone',
  adminsOnly: 'Only Admins can manage webhooks',
  notFound: 'Webhook not found',
  tooMany: `A company may have ${WEBHOOKS_PER_COMPANY} webhooks at most; delete one first`,
  created: 'Webhook created: copy its secret now, it will not be shown again',
  deleted: 'Webhook deleted',
  testQueued: 'A test event is on its way',
  disabled: 'The webhook is disabled',
  customersScopeResellersOnly: "Only a reseller's staff can subscribe to its customers' events",
} as const;

const url = z.string({ error: webhookMessages.urlRequired }).check(
  z.trim(),
  z.minLength(1, { error: webhookMessages.urlRequired, abort: true }),
  z.maxLength(WEBHOOK_URL_MAX, { error: webhookMessages.urlTooLong, abort: true }),
  z.superRefine((value, ctx) => {
    const parsed = URL.canParse(value) ? new URL(value) : undefined;
    if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || !parsed.hostname) {
      ctx.addIssue({ code: 'custom', message: webhookMessages.urlInvalid });
    } else if (parsed.username || parsed.password) {
      ctx.addIssue({ code: 'custom', message: webhookMessages.urlCredentials });
    }
  }),
);

const eventType = z.enum([ALL_EVENTS, ...activityActions], {
  error: webhookMessages.eventUnknown,
});

const events = z.array(eventType, { error: webhookMessages.eventsRequired }).check(
  z.minLength(1, webhookMessages.eventsRequired),
  z.maxLength(activityActions.length + 1, { error: webhookMessages.eventUnknown, abort: true }),
  z.refine((list) => !list.includes(ALL_EVENTS) || list.length === 1, webhookMessages.allAlone),
);

/**
 * `company` (the default): the company's own events. `customers`: for a reseller's staff, the
 * events of all the reseller's customers, their companies' ids in each (anyone else: 400).
 */
export const webhookScopes = ['company', 'customers'] as const;
export type WebhookScope = (typeof webhookScopes)[number];

/** `url` is HTTPS unless the operator allows plain HTTP (WEBHOOK_ALLOW_PRIVATE). */
export const createWebhookBody = z.object({
  url,
  events,
  scope: z._default(z.enum(webhookScopes), 'company'),
});
export type CreateWebhookBody = z.input<typeof createWebhookBody>;

export const webhook = z.object({
  id: z.int(),
  url: z.string(),
  events: z.array(z.string()),
  scope: z.enum(webhookScopes),
  createdAt: z.date(),
  /** Set when repeated failures disabled it; it then sends nothing more. */
  disabledAt: z.nullable(z.date()),
  disabledReason: z.nullable(z.string()),
  /** The last event handled (delivered, or given up); 0 before the first. */
  lastEventId: z.int(),
});
export type Webhook = z.infer<typeof webhook>;

export const createWebhookResponse = envelope(
  z.object({
    webhook,
    /** The signing secret, answered this once. */
    secret: z.string(),
  }),
);

export const listWebhooksResponse = envelope(z.array(webhook));

export const webhookIdParam = z.object({ id: idSchema });

export const webhookDeliveryOutcomes = ['succeeded', 'retrying', 'failed'] as const;

/** One attempt to deliver an event (a test event has the id 0 and the action `test`). */
export const webhookDelivery = z.object({
  id: z.int(),
  at: z.date(),
  eventId: z.int(),
  action: z.string(),
  attempt: z.int(),
  /** The receiver's answer; null when none came (refused address, timeout, no connection). */
  statusCode: z.nullable(z.int()),
  latencyMs: z.nullable(z.int()),
  /** `retrying`: it will be tried again; `failed`: given up. */
  outcome: z.enum(webhookDeliveryOutcomes),
  error: z.nullable(z.string()),
});
export type WebhookDelivery = z.infer<typeof webhookDelivery>;

export const listWebhookDeliveriesResponse = envelope(z.array(webhookDelivery));

export const webhookActionResponse = emptyEnvelope;
