import { eq } from 'drizzle-orm';
import type { ActivityEvent } from '../../src/api/contract/activity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  WEBHOOKS_PER_COMPANY,
  webhookMessages,
  type Webhook,
} from '../../src/api/contract/webhooks';
import { webhookSubscriptions } from '../../server/db/webhook-schema';
import { startWebhookWorld, type CallResult, type WebhookWorld } from './support/webhook-world';

let w: WebhookWorld;
beforeAll(async () => {
  w = await startWebhookWorld();
});
afterAll(() => w.close());

const fieldOf = (res: CallResult) => res.body.errors?.[0]?.field;

describe('POST /webhooks/create', () => {
  it('answers the webhook and its secret once, and keeps the secret sealed', async () => {
    const res = await w.call('admin', 'POST', '/webhooks/create', {
      url: 'https://hooks.example.com/launchpad',
      events: ['vm.created', 'vm.delete'],
    });
    expect(res.status).toBe(200);
    const { webhook, secret } = res.body.data as { webhook: Webhook; secret: string };
    expect(webhook).toMatchObject({
      url: 'https://hooks.example.com/launchpad',
      events: ['vm.created', 'vm.delete'],
      disabledAt: null,
    });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(res.body.message).toBe(webhookMessages.created);

    const [row] = await w.server.database.db
      .select()
      .from(webhookSubscriptions)
      .where(eq(webhookSubscriptions.id, webhook.id));
    expect(row!.secretSealed).not.toContain(secret.slice(6));
    const list = await w.call('admin', 'GET', '/webhooks/list');
    expect(JSON.stringify(list.body)).not.toContain(secret);
    expect((list.body.data as Webhook[]).map((h) => h.id)).toContain(webhook.id);
  });

  it.each([
    ['no URL', { events: ['*'] }, 'url'],
    ['a URL that is not one', { url: 'not a url', events: ['*'] }, 'url'],
    ['another scheme', { url: 'ftp://hooks.example.com/', events: ['*'] }, 'url'],
    ['a user and password', { url: 'https://u:p@hooks.example.com/', events: ['*'] }, 'url'],
    ['plain HTTP without the setting', { url: 'http://hooks.example.com/', events: ['*'] }, 'url'],
    [
      'an unknown event type',
      { url: 'https://hooks.example.com/', events: ['vm.explode'] },
      'events.0',
    ],
    ['an empty list', { url: 'https://hooks.example.com/', events: [] }, 'events'],
    ['no list', { url: 'https://hooks.example.com/' }, 'events'],
    ['"*" with others', { url: 'https://hooks.example.com/', events: ['*', 'vm.stop'] }, 'events'],
  ])('refuses %s with a 400 naming the field', async (_label, body, field) => {
    const res = await w.call('admin', 'POST', '/webhooks/create', body);
    expect(res.status).toBe(400);
    expect(fieldOf(res)).toBe(field);
  });

  it('refuses plain HTTP with the message that says so', async () => {
    const res = await w.call('admin', 'POST', '/webhooks/create', {
      url: 'http://hooks.example.com/',
      events: ['*'],
    });
    expect(res.body.errors).toEqual([{ field: 'url', message: webhookMessages.httpsRequired }]);
  });
});

describe('Admins only', () => {
  it('answers 403 to anybody else, on every route', async () => {
    const { id } = await w.createWebhook('https://hooks.example.com/admins');
    const calls = [
      ['POST', '/webhooks/create', { url: 'https://hooks.example.com/', events: ['*'] }],
      ['GET', '/webhooks/list'],
      ['DELETE', `/webhooks/delete/${id}`],
      ['GET', `/webhooks/deliveries/${id}`],
      ['POST', `/webhooks/test/${id}`],
    ] as const;
    for (const [method, url, body] of calls) {
      const res = await w.call('viewer', method, url, body);
      expect({ url, status: res.status }).toEqual({ url, status: 403 });
      expect(res.body.message).toBe(webhookMessages.adminsOnly);
    }
  });

  it("answers 404 for another company's webhook, and lists none of them", async () => {
    const { id } = await w.createWebhook('https://hooks.example.com/theirs');
    for (const [method, url] of [
      ['DELETE', `/webhooks/delete/${id}`],
      ['GET', `/webhooks/deliveries/${id}`],
      ['POST', `/webhooks/test/${id}`],
    ] as const) {
      const res = await w.call('otherAdmin', method, url);
      expect({ url, status: res.status }).toEqual({ url, status: 404 });
    }
    const list = await w.call('otherAdmin', 'GET', '/webhooks/list');
    expect(list.body.data).toEqual([]);
  });
});

describe('DELETE /webhooks/delete/:id', () => {
  it('deletes it, after which it is not found', async () => {
    const { id } = await w.createWebhook('https://hooks.example.com/gone');
    expect((await w.call('admin', 'DELETE', `/webhooks/delete/${id}`)).status).toBe(200);
    expect((await w.call('admin', 'DELETE', `/webhooks/delete/${id}`)).status).toBe(404);
    expect((await w.call('admin', 'GET', `/webhooks/deliveries/${id}`)).status).toBe(404);
    const list = await w.call('admin', 'GET', '/webhooks/list');
    expect((list.body.data as Webhook[]).map((h) => h.id)).not.toContain(id);
  });

  it("logs creations and deletions for Admins, naming the URL's origin only", async () => {
    const { id } = await w.createWebhook('https://audit.example.com/hooks?token=receiver-secret');
    await w.call('admin', 'DELETE', `/webhooks/delete/${id}`);
    const url = `/activity/list?subjectType=webhook&subjectId=${id}&sortDescending=false`;
    const res = await w.call('admin', 'GET', url);
    const events = (res.body.data as { data: ActivityEvent[] }).data;
    expect(events.map((e) => [e.action, e.actor.id, e.subject.name, e.outcome])).toEqual([
      ['webhook.create', w.admin.id, 'https://audit.example.com', 'succeeded'],
      ['webhook.delete', w.admin.id, 'https://audit.example.com', 'succeeded'],
    ]);
    expect(JSON.stringify(events)).not.toContain('receiver-secret');
    const seen = await w.call('viewer', 'GET', url);
    expect((seen.body.data as { data: ActivityEvent[] }).data).toEqual([]);
  });

  it('answers 400 for an id that is not one', async () => {
    const res = await w.call('admin', 'DELETE', '/webhooks/delete/abc');
    expect(res.status).toBe(400);
    expect(fieldOf(res)).toBe('id');
  });
});

// Last: it fills the company up.
describe('the limit', () => {
  it(`allows ${WEBHOOKS_PER_COMPANY} webhooks a company, then answers 409`, async () => {
    const held = async () =>
      (await w.call('admin', 'GET', '/webhooks/list')).body.data as Webhook[];
    for (let n = (await held()).length; n < WEBHOOKS_PER_COMPANY; n += 1) {
      await w.createWebhook(`https://hooks.example.com/${n}`);
    }
    const body = { url: 'https://hooks.example.com/one-too-many', events: ['*'] };
    const res = await w.call('admin', 'POST', '/webhooks/create', body);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(webhookMessages.tooMany);
    // Another company has a limit of its own, and a deletion makes room.
    expect((await w.call('otherAdmin', 'POST', '/webhooks/create', body)).status).toBe(200);
    await w.call('admin', 'DELETE', `/webhooks/delete/${(await held())[0]!.id}`);
    expect((await w.call('admin', 'POST', '/webhooks/create', body)).status).toBe(200);
  });
});
