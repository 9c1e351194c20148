import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookSubscriptions } from '../../server/db/webhook-schema';
import { createSecretBox } from '../../server/domain/secrets';
import { createWebhookDispatcher } from '../../server/domain/webhooks/dispatcher';
import { createMailer } from '../../server/mail/transport';
import {
  startReceiver,
  startWebhookWorld,
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

function anotherWorker(workerId: string) {
  return createWebhookDispatcher({
    db: w.server.database.db,
    clock: w.server.clock,
    secrets: createSecretBox(w.server.config.appSecret),
    mailer: createMailer({
      smtpUrl: undefined,
      from: w.server.config.mailFrom,
      outboxDir: w.server.outboxDir,
      logger: { info: () => {} },
    }),
    allowPrivate: true,
    publicUrl: w.server.config.publicUrl,
    log: { warn: () => {}, error: () => {} },
    workerId,
  });
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
});
