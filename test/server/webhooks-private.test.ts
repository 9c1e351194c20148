import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookDelivery } from '../../src/api/contract/webhooks';
import { isPublicAddress } from '../../server/domain/webhooks/address-guard';
import {
  startReceiver,
  startWebhookWorld,
  type Receiver,
  type WebhookWorld,
} from './support/webhook-world';

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '100.64.0.1',
    '169.254.169.254',
    '0.0.0.0',
    '0.1.2.3',
    '224.0.0.1',
    '255.255.255.255',
    '240.0.0.1',
    '::',
    '::1',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:7f00:1',
    '64:ff9b::a00:1',
    '2002:a00:1::1',
    'not an address',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['1.1.1.1', '93.184.215.14', '2606:4700:4700::1111', '::ffff:1.1.1.1'])(
    'allows %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );
});

describe('with WEBHOOK_ALLOW_PRIVATE off', () => {
  let w: WebhookWorld;
  let receiver: Receiver;
  beforeAll(async () => {
    w = await startWebhookWorld();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await w.close();
  });

  it.each([
    ['a name that resolves to loopback', 'localhost', /^Refused: (127\.0\.0\.1|::1) is not a/],
    ['a loopback address', '127.0.0.1', /^Refused: 127\.0\.0\.1 is not a public address$/],
    ['an IPv4-mapped loopback address', '[::ffff:127.0.0.1]', /^Refused: ::ffff:7f00:1 is not/],
  ])('refuses to deliver to %s, records it, and sends nothing', async (_label, host, error) => {
    const { id } = await w.createWebhook(`https://${host}:${receiver.port}/hooks`);
    await w.teamEvent(`Team for ${host}`);
    await w.dispatcher.drain();

    expect(receiver.received).toEqual([]);
    const res = await w.call('admin', 'GET', `/webhooks/deliveries/${id}`);
    const log = res.body.data as WebhookDelivery[];
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      attempt: 1,
      statusCode: null,
      latencyMs: null,
      outcome: 'retrying',
    });
    expect(log[0]!.error).toMatch(error);
    await w.call('admin', 'DELETE', `/webhooks/delete/${id}`);
  });

  it('refuses a test event to a private address too', async () => {
    const { id } = await w.createWebhook(`https://127.0.0.1:${receiver.port}/hooks`);
    await w.call('admin', 'POST', `/webhooks/test/${id}`);
    await w.dispatcher.drain();
    expect(receiver.received).toEqual([]);
    const res = await w.call('admin', 'GET', `/webhooks/deliveries/${id}`);
    expect(res.body.data).toMatchObject([
      { eventId: 0, action: 'test', statusCode: null, outcome: 'failed' },
    ]);
  });
});
