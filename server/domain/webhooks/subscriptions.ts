import { randomBytes } from 'node:crypto';
import { and, asc, count, desc, eq, max } from 'drizzle-orm';
import {
  WEBHOOK_DELIVERY_LOG_LIMIT,
  WEBHOOKS_PER_COMPANY,
  webhookMessages,
  type CreateWebhookBody,
  type Webhook,
  type WebhookDelivery,
  type WebhookScope,
} from '../../../src/api/contract/webhooks';
import type { Db, Tx } from '../../db/client';
import { events } from '../../db/event-schema';
import { companies } from '../../db/schema';
import { webhookDeliveries, webhookSubscriptions } from '../../db/webhook-schema';
import { badRequest, conflict, notFound } from '../../http-error';
import { userActor } from '../events/actor';
import type { SessionCaller } from '../identity/sessions';
import type { SecretBox } from '../secrets';
import { requireAdmin, type Caller } from '../tenancy/access';
import { recordWebhookEvent } from './webhook-events';

type SubscriptionRow = typeof webhookSubscriptions.$inferSelect;

const toWebhook = (row: SubscriptionRow): Webhook => ({
  id: row.id,
  url: row.url,
  events: row.events,
  scope: row.scope,
  createdAt: row.createdAt,
  disabledAt: row.disabledAt,
  disabledReason: row.disabledReason,
  lastEventId: row.lastEventId,
});

/** `whsec_` and 32 random bytes: long enough for HMAC-SHA256, and recognisable. */
const newSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

/**
 * Where a new subscription's cursor starts: after the company's newest event, or for scope
 * `customers` after the newest of all (its reseller's customers' are among them; the worker
 * moves it past the others).
 */
async function newestEvent(tx: Tx, companyId: number, scope: WebhookScope): Promise<number> {
  const [last] = await tx
    .select({ seq: max(events.seq) })
    .from(events)
    .where(scope === 'customers' ? undefined : eq(events.companyId, companyId));
  return last?.seq ?? 0;
}

/**
 * A new subscription, for the company's events committed from now on; scope `customers`, for
 * those of all the reseller's customers, is for an Admin of a reseller's staff company only (400
 * naming `scope` for anyone else). Plain HTTP is refused here already (it would be at every
 * delivery); addresses are judged at delivery time only, since a name may resolve differently
 * then.
 */
export async function createWebhook(
  db: Db,
  caller: Caller & Pick<SessionCaller, 'isReseller'>,
  body: CreateWebhookBody,
  options: { secrets: SecretBox; allowPrivate: boolean; now: Date },
): Promise<{ webhook: Webhook; secret: string }> {
  requireAdmin(caller, webhookMessages.adminsOnly);
  const url = new URL(body.url.trim());
  if (url.protocol !== 'https:' && !options.allowPrivate) {
    throw badRequest(webhookMessages.httpsRequired, 'url');
  }
  const scope = body.scope ?? 'company';
  const secret = newSecret();
  const row = await db.transaction(async (tx) => {
    // The company's row is the lock: two creations at once cannot both slip under the limit.
    const [company] = await tx
      .select({ isResellerStaff: companies.isResellerStaff })
      .from(companies)
      .where(eq(companies.id, caller.companyId))
      .for('update');
    if (scope === 'customers' && !(caller.isReseller && company?.isResellerStaff)) {
      throw badRequest(webhookMessages.customersScopeResellersOnly, 'scope');
    }
    const [held] = await tx
      .select({ n: count() })
      .from(webhookSubscriptions)
      .where(eq(webhookSubscriptions.companyId, caller.companyId));
    if ((held?.n ?? 0) >= WEBHOOKS_PER_COMPANY) throw conflict(webhookMessages.tooMany);
    const [inserted] = await tx
      .insert(webhookSubscriptions)
      .values({
        companyId: caller.companyId,
        scope,
        url: url.toString(),
        events: body.events,
        secretSealed: options.secrets.seal(secret),
        createdBy: caller.userId,
        lastEventId: await newestEvent(tx, caller.companyId, scope),
        runAfter: options.now,
        createdAt: options.now,
        updatedAt: options.now,
      })
      .returning();
    await recordWebhookEvent(tx, inserted!, 'webhook.create', {
      at: options.now,
      actor: await userActor(tx, caller.userId),
    });
    return inserted!;
  });
  return { webhook: toWebhook(row), secret };
}

export async function listWebhooks(db: Db, caller: Caller): Promise<Webhook[]> {
  requireAdmin(caller, webhookMessages.adminsOnly);
  const rows = await db
    .select()
    .from(webhookSubscriptions)
    .where(eq(webhookSubscriptions.companyId, caller.companyId))
    .orderBy(asc(webhookSubscriptions.id));
  return rows.map(toWebhook);
}

const ofCaller = (caller: Caller, id: number) =>
  and(eq(webhookSubscriptions.id, id), eq(webhookSubscriptions.companyId, caller.companyId));

/** Deletes it with its delivery log; a delivery under way finishes but is recorded nowhere. */
export async function deleteWebhook(db: Db, caller: Caller, id: number, now: Date): Promise<void> {
  requireAdmin(caller, webhookMessages.adminsOnly);
  await db.transaction(async (tx) => {
    const [deleted] = await tx.delete(webhookSubscriptions).where(ofCaller(caller, id)).returning();
    if (!deleted) throw notFound(webhookMessages.notFound);
    await recordWebhookEvent(tx, deleted, 'webhook.delete', {
      at: now,
      actor: await userActor(tx, caller.userId),
    });
  });
}

export async function listWebhookDeliveries(
  db: Db,
  caller: Caller,
  id: number,
): Promise<WebhookDelivery[]> {
  requireAdmin(caller, webhookMessages.adminsOnly);
  const [subscription] = await db
    .select({ id: webhookSubscriptions.id })
    .from(webhookSubscriptions)
    .where(ofCaller(caller, id));
  if (!subscription) throw notFound(webhookMessages.notFound);
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.subscriptionId, id))
    .orderBy(desc(webhookDeliveries.id))
    .limit(WEBHOOK_DELIVERY_LOG_LIMIT);
  return rows.map(({ subscriptionId: _subscription, ...delivery }) => delivery);
}

/** Asks the delivery worker for a test event, sent before the next event due (409 if disabled). */
export async function requestTestDelivery(
  db: Db,
  caller: Caller,
  id: number,
  now: Date,
): Promise<void> {
  requireAdmin(caller, webhookMessages.adminsOnly);
  const [row] = await db
    .select({ disabledAt: webhookSubscriptions.disabledAt })
    .from(webhookSubscriptions)
    .where(ofCaller(caller, id));
  if (!row) throw notFound(webhookMessages.notFound);
  if (row.disabledAt) throw conflict(webhookMessages.disabled);
  await db
    .update(webhookSubscriptions)
    .set({ testRequestedAt: now, updatedAt: now })
    .where(ofCaller(caller, id));
}
