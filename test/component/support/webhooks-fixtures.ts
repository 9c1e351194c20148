import { screen, waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';
import type { CreateWebhookBody } from '../../../src/api/contract/webhooks';
import { api, http, ok, server } from './msw';
import { renderApp } from './render';

/** A webhook as `GET /webhooks/list` sends it (dates as ISO strings on the wire). */
export const aWebhook = (id: number, overrides: Record<string, unknown> = {}) => ({
  id,
  url: `https://hooks${id}.example.com/launchpad`,
  events: ['*'],
  scope: 'company' as 'company' | 'customers',
  createdAt: '2026-10-01T09:00:00.000Z',
  disabledAt: null as string | null,
  disabledReason: null as string | null,
  lastEventId: 0,
  ...overrides,
});
export type WireWebhook = ReturnType<typeof aWebhook>;

/** One attempt as `GET /webhooks/deliveries/:id` sends it. */
export const aDelivery = (id: number, overrides: Record<string, unknown> = {}) => ({
  id,
  at: '2026-11-20T08:30:05.000Z',
  eventId: 4127,
  action: 'vm.created',
  attempt: 1,
  statusCode: 200 as number | null,
  latencyMs: 87 as number | null,
  outcome: 'succeeded' as 'succeeded' | 'retrying' | 'failed',
  error: null as string | null,
  ...overrides,
});
export type WireDelivery = ReturnType<typeof aDelivery>;

/** What the create answer carries once. */
export const WEBHOOK_SECRET = 'whsec_Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWo';

/**
 * A small fake of the webhooks routes over a company's webhooks and their delivery logs,
 * recording what the console sends. A test request adds a succeeded test delivery to the log at
 * once, as the delivery worker would within seconds.
 */
export function serveWebhooks(
  webhooks: WireWebhook[] = [],
  deliveriesOf: Record<number, WireDelivery[]> = {},
) {
  const store = webhooks.map((w) => ({ ...w }));
  const logs = new Map(Object.entries(deliveriesOf).map(([id, rows]) => [Number(id), [...rows]]));
  const sent = {
    lists: 0,
    creates: [] as CreateWebhookBody[],
    deletes: [] as number[],
    tests: [] as number[],
    deliveryReads: [] as number[],
  };
  let nextId = 100;
  let nextDelivery = 900;
  server.use(
    http.get(api('webhooks/list'), () => {
      sent.lists += 1;
      return ok(store);
    }),
    http.post(api('webhooks/create'), async ({ request }) => {
      const body = (await request.json()) as CreateWebhookBody;
      sent.creates.push(body);
      const webhook = aWebhook(nextId++, {
        url: body.url,
        events: body.events,
        scope: body.scope ?? 'company',
        createdAt: new Date().toISOString(),
        lastEventId: 0,
      });
      store.push(webhook);
      return ok(
        { webhook, secret: WEBHOOK_SECRET },
        'Webhook created: copy its secret now, it will not be shown again',
      );
    }),
    http.delete(api('webhooks/delete/:id'), ({ params }) => {
      const id = Number(params.id);
      sent.deletes.push(id);
      store.splice(
        store.findIndex((w) => w.id === id),
        1,
      );
      return ok(null, 'Webhook deleted');
    }),
    http.get(api('webhooks/deliveries/:id'), ({ params }) => {
      const id = Number(params.id);
      sent.deliveryReads.push(id);
      return ok(logs.get(id) ?? []);
    }),
    http.post(api('webhooks/test/:id'), ({ params }) => {
      const id = Number(params.id);
      sent.tests.push(id);
      logs.set(id, [
        aDelivery(nextDelivery++, {
          at: new Date().toISOString(),
          eventId: 0,
          action: 'test',
          statusCode: 204,
          latencyMs: 12,
        }),
        ...(logs.get(id) ?? []),
      ]);
      return ok(null, 'A test event is on its way');
    }),
  );
  return { sent, store, logs };
}

/** An active webhook for every event, and a disabled one for five types. */
export const twoWebhooks = () => [
  aWebhook(1, {
    url: 'https://billing.example.com/hooks',
    events: ['*'],
    createdAt: '2026-09-01T10:00:00.000Z',
    lastEventId: 4127,
  }),
  aWebhook(2, {
    url: 'https://old.example.net/in',
    events: ['vm.created', 'vm.delete', 'vm.upgrade', 'network.create', 'user.invite'],
    disabledAt: '2026-11-02T06:00:00.000Z',
    disabledReason: 'Event 4100 failed for 24 hours: connect ECONNREFUSED',
  }),
];

/** The Settings page, once its list has loaded. */
export async function openSettings(path = '/settings') {
  const view = await renderApp(path);
  await screen.findByRole('heading', { level: 2, name: 'Settings' });
  await waitFor(() => expect(screen.queryByLabelText('Loading data')).not.toBeInTheDocument());
  return view;
}

export const webhooksTable = () => screen.getByRole('table', { name: 'Webhooks' });
export const webhookRow = (url: string) => within(webhooksTable()).getByText(url).closest('tr')!;
