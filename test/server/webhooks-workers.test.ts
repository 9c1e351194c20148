import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookDelivery } from '../../src/api/contract/webhooks';
import { webhookSubscriptions } from '../../server/db/webhook-schema';
import {
  startReceiver,
  startWebhookWorld,
  testWebhookDispatcher,
  type Receiver,
  type WebhookWorld,
} from './support/webhook-world';

/** Delivery workers of several processes sharing one database, as with PostgreSQL. */

let w: WebhookWorld;
let receiver: Receiver;
beforeAll(async () => {
  w = await startWebhookWorld({ WEBHOOK_ALLOW_PRIVATE: 'true' });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await w.close();
});

function anotherWorker(workerId: string, deliveryLogSize?: number) {
  return testWebhookDispatcher(w.server, { workerId, deliveryLogSize });
}

const namesAt = (path: string) =>
  receiver.received.filter((r) => r.url === path).map((r) => JSON.parse(r.body).subject.name);

describe('several delivery workers', () => {
  it('deliver each event once, in order, however their passes interleave', async () => {
    const path = '/hooks/shared';
    await w.createWebhook(`http://127.0.0.1:${receiver.port}${path}`);
    const names = ['One', 'Two', 'Three', 'Four', 'Five', 'Six'];
    for (const name of names) await w.teamEvent(name);
    const workers = [w.dispatcher, anotherWorker('process-b'), anotherWorker('process-c')];
    for (let pass = 0; pass < 20; pass += 1) {
      await Promise.all(workers.map((worker) => worker.runOnce()));
    }
    expect(namesAt(path)).toEqual(names);
  });

  it('take over a subscription whose worker died, once its lease has run out', async () => {
    const path = '/hooks/orphaned';
    const { id } = await w.createWebhook(`http://127.0.0.1:${receiver.port}${path}`);
    await w.teamEvent('Orphaned');
    // As a worker leaves it that claimed the subscription and died before sending: its lease stays.
    await w.server.database.db
      .update(webhookSubscriptions)
      .set({
        lockedBy: 'process-dead',
        lockedUntil: new Date(w.server.clock.now().getTime() + 60_000),
      })
      .where(eq(webhookSubscriptions.id, id));

    await w.dispatcher.drain();
    expect(namesAt(path)).toEqual([]);
    w.server.clock.advance(61_000);
    await w.dispatcher.drain();
    expect(namesAt(path)).toEqual(['Orphaned']);
  });

  it("keep only the latest attempts in a subscription's log", async () => {
    const path = '/hooks/chatty';
    const { id } = await w.createWebhook(`http://127.0.0.1:${receiver.port}${path}`);
    receiver.answer(path, 500, 500, 500, 500);
    await w.teamEvent('Chatty');
    const worker = anotherWorker('process-short-log', 3);
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      await worker.drain();
      w.server.clock.advance(60 * 60_000);
    }
    expect(namesAt(path)).toHaveLength(5);
    const res = await w.call('admin', 'GET', `/webhooks/deliveries/${id}`);
    const log = res.body.data as WebhookDelivery[];
    expect(log.map((d) => [d.attempt, d.outcome])).toEqual([
      [5, 'succeeded'],
      [4, 'retrying'],
      [3, 'retrying'],
    ]);
  });
});
