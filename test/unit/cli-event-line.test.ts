import { describe, expect, it } from 'vitest';
import { eventLine } from '../../cli/src/commands/events';

describe('launchpad events: one line an event', () => {
  it('writes when, what, on what, by whom, and the details, dates as ISO 8601', () => {
    const line = eventLine({
      id: 2,
      occurredAt: new Date('2026-11-27T21:38:04.751Z'),
      actor: { type: 'user', id: 1, name: 'Ada Admin' },
      subject: { type: 'apiToken', id: 1, name: 'billing' },
      action: 'apiToken.create',
      outcome: 'succeeded',
      teamId: null,
      networkId: null,
      operationId: null,
      detail: { access: 'read', expiresAt: new Date('2027-06-01T00:00:00Z') },
    });
    expect(line).toBe(
      '2026-11-27T21:38:04.751Z  #2  apiToken.create succeeded  apiToken 1 "billing"  by Ada Admin  access=read expiresAt=2027-06-01T00:00:00.000Z',
    );
  });
});
