import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { ActivityEvent } from '../../src/api/contract/activity';
import { applyEvent } from '../../src/live/apply-event';
import { apiTokenKeys } from '../../src/queries/api-tokens';
import { teamKeys } from '../../src/queries/teams';
import { webhookKeys } from '../../src/queries/webhooks';

const event = (overrides: Partial<ActivityEvent>): ActivityEvent => ({
  id: 1,
  occurredAt: new Date('2026-11-27T12:00:00Z'),
  actor: { type: 'user', id: 1, name: 'Ada Admin' },
  subject: { type: 'apiToken', id: 9, name: 'billing' },
  action: 'apiToken.revoke',
  outcome: 'succeeded',
  teamId: null,
  networkId: null,
  operationId: null,
  detail: {},
  ...overrides,
});

/** A cache holding a token list, a team list and the webhooks, all fresh. */
function cache() {
  const client = new QueryClient();
  client.setQueryData(apiTokenKeys.list({ all: true }), []);
  client.setQueryData(teamKeys.all, []);
  client.setQueryData(webhookKeys.lists(), []);
  const stale = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated;
  return { client, stale };
}

describe('a live event in the query cache', () => {
  it('makes the token lists stale when a token is made, revoked or used anew, and nothing else', () => {
    const { client, stale } = cache();
    applyEvent(client, event({}));
    expect(stale(apiTokenKeys.list({ all: true }))).toBe(true);
    expect(stale(teamKeys.all)).toBe(false);
    expect(stale(webhookKeys.lists())).toBe(false);
  });

  it('makes them stale when a user is deleted, with their tokens', () => {
    const { client, stale } = cache();
    applyEvent(
      client,
      event({ subject: { type: 'user', id: 3, name: 'Gone' }, action: 'user.delete' }),
    );
    expect(stale(apiTokenKeys.list({ all: true }))).toBe(true);
  });

  it('leaves them alone for a sign-in from a new address', () => {
    const { client, stale } = cache();
    applyEvent(
      client,
      event({ subject: { type: 'session', id: 4, name: 'Ada' }, action: 'session.new-address' }),
    );
    expect(stale(apiTokenKeys.list({ all: true }))).toBe(false);
  });

  it.each(['webhook.create', 'webhook.delete', 'webhook.disable'] as const)(
    'makes the webhooks stale on %s, and nothing else',
    (action) => {
      const { client, stale } = cache();
      applyEvent(
        client,
        event({ subject: { type: 'webhook', id: 5, name: 'https://hooks.example' }, action }),
      );
      expect(stale(webhookKeys.lists())).toBe(true);
      expect(stale(apiTokenKeys.list({ all: true }))).toBe(false);
      expect(stale(teamKeys.all)).toBe(false);
    },
  );
});
