import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityEvent, type ActivityEvent } from '../../src/api/contract/activity';
import type { Webhook, WebhookDelivery } from '../../src/api/contract/webhooks';
import { resellerDomains } from '../../server/db/schema';
import { mailsTo } from './support/mail';
import {
  startReceiver,
  startWebhookWorld,
  type Receiver,
  type WebhookWorld,
} from './support/webhook-world';

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

/** Each test sends to a path of its own, so that it reads only its own deliveries. */
let paths = 0;
async function webhookAt(events: string[] = ['*']) {
  const path = `/hooks/${(paths += 1)}`;
  const hook = await w.createWebhook(`http://127.0.0.1:${receiver.port}${path}`, events);
  return { ...hook, path, received: () => receiver.received.filter((r) => r.url === path) };
}

async function deliveries(id: number) {
  const res = await w.call('admin', 'GET', `/webhooks/deliveries/${id}`);
  expect(res.status).toBe(200);
  return (res.body.data as WebhookDelivery[]).slice().reverse();
}

async function webhook(id: number) {
  const res = await w.call('admin', 'GET', '/webhooks/list');
  return (res.body.data as Webhook[]).find((h) => h.id === id)!;
}

const signed = (secret: string, timestamp: string, body: string) =>
  `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;

describe('deliveries', () => {
  it('POSTs each event, signed, in the order of the event ids', async () => {
    const hook = await webhookAt();
    for (const name of ['Alpha', 'Beta', 'Gamma']) await w.teamEvent(name);
    await w.dispatcher.drain();

    const got = hook.received();
    expect(got).toHaveLength(3);
    const ids = got.map((r) => Number(r.headers['launchpad-event-id']));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    for (const r of got) {
      expect(r.headers['content-type']).toBe('application/json');
      const timestamp = r.headers['launchpad-timestamp'] as string;
      expect(Number(timestamp)).toBe(Math.floor(w.server.clock.now().getTime() / 1000));
      expect(r.headers['launchpad-signature']).toBe(signed(hook.secret, timestamp, r.body));
      const event = activityEvent.parse({ ...JSON.parse(r.body), occurredAt: new Date() });
      expect(event.id).toBe(Number(r.headers['launchpad-event-id']));
      expect(event.action).toBe('team.create');
    }
    expect(got.map((r) => JSON.parse(r.body).subject.name)).toEqual(['Alpha', 'Beta', 'Gamma']);

    const log = await deliveries(hook.id);
    expect(log.map((d) => [d.eventId, d.action, d.attempt, d.statusCode, d.outcome])).toEqual(
      ids.map((id) => [id, 'team.create', 1, 200, 'succeeded']),
    );
    expect(log.every((d) => d.error === null && d.latencyMs !== null)).toBe(true);
    expect((await webhook(hook.id)).lastEventId).toBe(ids[2]);
  });

  it('sends only the event types asked for', async () => {
    const hook = await webhookAt(['team.delete']);
    await w.teamEvent('Delta');
    await w.dispatcher.drain();
    expect(hook.received()).toEqual([]);
    expect(await deliveries(hook.id)).toEqual([]);
  });

  it('retries a failing event with growing pauses, holding back the next one', async () => {
    const hook = await webhookAt();
    receiver.answer(hook.path, 500, 503, 500);
    await w.teamEvent('Epsilon');
    await w.teamEvent('Zeta');

    await w.dispatcher.drain();
    expect(hook.received()).toHaveLength(1);
    // Not due before its pause is over: 30 s, then 60 s, then 120 s.
    for (const pause of [30_000, 60_000, 120_000]) {
      w.server.clock.advance(pause - 1_000);
      await w.dispatcher.drain();
      const before = hook.received().length;
      w.server.clock.advance(1_000);
      await w.dispatcher.drain();
      expect(hook.received().length).toBeGreaterThan(before);
    }

    const names = hook.received().map((r) => JSON.parse(r.body).subject.name);
    expect(names).toEqual(['Epsilon', 'Epsilon', 'Epsilon', 'Epsilon', 'Zeta']);
    const log = await deliveries(hook.id);
    expect(log.map((d) => [d.attempt, d.statusCode, d.outcome, d.error])).toEqual([
      [1, 500, 'retrying', 'HTTP 500'],
      [2, 503, 'retrying', 'HTTP 503'],
      [3, 500, 'retrying', 'HTTP 500'],
      [4, 200, 'succeeded', null],
      [1, 200, 'succeeded', null],
    ]);
    const ids = new Set(hook.received().map((r) => r.headers['launchpad-event-id']));
    expect(ids.size).toBe(2);
  });

  it('sends a test event when asked', async () => {
    const hook = await webhookAt();
    const res = await w.call('admin', 'POST', `/webhooks/test/${hook.id}`);
    expect(res.status).toBe(200);
    await w.dispatcher.drain();
    const [got] = hook.received();
    expect(got!.headers['launchpad-event-id']).toBe('0');
    expect(JSON.parse(got!.body)).toMatchObject({ id: 0, test: true, webhookId: hook.id });
    expect(got!.headers['launchpad-signature']).toBe(
      signed(hook.secret, got!.headers['launchpad-timestamp'] as string, got!.body),
    );
    const log = await deliveries(hook.id);
    expect(log.map((d) => [d.eventId, d.action, d.statusCode, d.outcome])).toEqual([
      [0, 'test', 200, 'succeeded'],
    ]);
  });

  it('gives an event up after 24 hours of failures, disables the webhook and mails the Admins', async () => {
    // The reseller has its own domain: the mail links there and comes under its name.
    await w.server.database.db
      .insert(resellerDomains)
      .values({ host: 'console.hookly.test', resellerId: w.company.resellerId, source: 'import' });
    const hook = await webhookAt();
    receiver.answer(hook.path, ...Array<number>(100).fill(500));
    await w.teamEvent('Eta');
    await w.teamEvent('Theta');

    for (let hour = 0; hour <= 26 && !(await webhook(hook.id)).disabledAt; hour += 1) {
      await w.dispatcher.drain();
      w.server.clock.advance(60 * 60_000);
    }
    const disabled = await webhook(hook.id);
    expect(disabled.disabledAt).not.toBeNull();
    expect(disabled.disabledReason).toMatch(/failed for 24 hours: HTTP 500$/);

    const log = await deliveries(hook.id);
    const last = log.at(-1)!;
    expect(last).toMatchObject({ outcome: 'failed', statusCode: 500 });
    expect(log.slice(0, -1).every((d) => d.outcome === 'retrying')).toBe(true);
    expect(new Set(log.map((d) => d.eventId)).size).toBe(1);
    // The next event is never sent: the webhook is disabled.
    const names = hook.received().map((r) => JSON.parse(r.body).subject.name);
    expect(new Set(names)).toEqual(new Set(['Eta']));
    w.server.clock.advance(60 * 60_000);
    await w.dispatcher.drain();
    expect(hook.received()).toHaveLength(log.length);

    for (const admin of [w.admin, w.secondAdmin]) {
      const mails = mailsTo(w.server, admin.email).filter((m) => m.subject.includes('webhook'));
      expect(mails.map((m) => m.subject)).toEqual(['A Hookly webhook was disabled']);
      expect(mails[0]!.text).toContain(`127.0.0.1:${receiver.port}${hook.path}`);
      expect(mails[0]!.text).toContain('HTTP 500');
      // After the webhook's own address: the link to the console.
      expect(mails[0]!.text).toMatch(/^https?:\/\/console\.hookly\.test[:/]/m);
    }
    const raw = w.server.outbox().filter((m) => m.includes('webhook was disabled'));
    expect(raw.map((m) => /^From: (.*)$/m.exec(m)?.[1])).toEqual([
      'Hookly <no-reply@launchpad.local>',
      'Hookly <no-reply@launchpad.local>',
    ]);
    const test = await w.call('admin', 'POST', `/webhooks/test/${hook.id}`);
    expect(test.status).toBe(409);
    const activity = await w.call(
      'admin',
      'GET',
      `/activity/list?subjectType=webhook&subjectId=${hook.id}`,
    );
    expect((activity.body.data as { data: ActivityEvent[] }).data[0]).toMatchObject({
      action: 'webhook.disable',
      actor: { type: 'system' },
      detail: { reason: disabled.disabledReason },
    });
  });
});
