import { notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { webhookMessages } from '../../src/api/contract/webhooks';
import { formatDate, formatTimeOfDay } from '../../src/components/date-format';
import { anEvent } from './support/activity-fixtures';
import { FakeEventSource, installEventSource } from './support/fake-event-source';
import { useFakeTimersForUser } from './support/fake-timers';
import { signedInAs } from './support/users-fixtures';
import {
  aDelivery,
  openSettings,
  serveWebhooks,
  twoWebhooks,
  webhookRow as rowOf,
} from './support/webhooks-fixtures';

// An Admin (a later handler wins).
beforeEach(() => void signedInAs());

// Not returned: an awaited act() keeps its scope open into the next test's first steps.
afterEach(() => {
  act(() => notifications.clean());
  vi.unstubAllGlobals();
});

const button = (name: string | RegExp) => screen.getByRole('button', { name });

// By its role: the row button's tooltip says 'Delivery log' too.
const deliveryLog = () => screen.findByRole('dialog', { name: 'Delivery log' });

describe('Settings: a webhook’s delivery log', () => {
  const log = () => [
    aDelivery(11, {
      at: '2026-11-20T08:31:00.000Z',
      eventId: 4128,
      action: 'vm.delete',
      attempt: 3,
      statusCode: null,
      latencyMs: null,
      outcome: 'retrying',
      error: 'connect ECONNREFUSED 203.0.113.9:443',
    }),
    aDelivery(10, {
      at: '2026-11-20T08:30:05.000Z',
      eventId: 4127,
      statusCode: 200,
      latencyMs: 87,
    }),
  ];

  it('shows each attempt: time, event, attempt, status, latency, outcome, error', async () => {
    const { sent } = serveWebhooks(twoWebhooks(), { 1: log() });
    const { user } = await openSettings();
    await user.click(button('Delivery log of https://billing.example.com/hooks'));
    const drawer = await deliveryLog();
    const table = await within(drawer).findByRole('table', { name: 'Deliveries' });
    await within(table).findByText('vm.delete');
    expect(sent.deliveryReads).toEqual([1]);
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Time', 'Event', 'Attempt', 'Status', 'Latency', 'Outcome', 'Error']);
    const cells = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      );
    expect(cells).toEqual([
      [
        `${formatTimeOfDay(new Date('2026-11-20T08:31:00.000Z'))}${formatDate(new Date('2026-11-20T08:31:00.000Z'))}`,
        'vm.delete#4128',
        '3',
        '—',
        '—',
        'Retrying',
        'connect ECONNREFUSED 203.0.113.9:443',
      ],
      [
        `${formatTimeOfDay(new Date('2026-11-20T08:30:05.000Z'))}${formatDate(new Date('2026-11-20T08:30:05.000Z'))}`,
        'vm.created#4127',
        '1',
        '200',
        '87 ms',
        'Succeeded',
        '—',
      ],
    ]);
  });

  it('opens from the row with the keyboard too', async () => {
    serveWebhooks(twoWebhooks(), { 1: log() });
    const { user } = await openSettings();
    rowOf('https://billing.example.com/hooks').focus();
    await user.keyboard('{Enter}');
    const drawer = await deliveryLog();
    expect(await within(drawer).findByText('vm.delete')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows a test event sent from the log without a click on Refresh', async () => {
    const { sent } = serveWebhooks(twoWebhooks(), { 1: [] });
    const { user } = await openSettings();
    await user.click(button('Delivery log of https://billing.example.com/hooks'));
    const drawer = await deliveryLog();
    expect(await within(drawer).findByText(/^No deliveries yet/)).toBeInTheDocument();
    await user.click(within(drawer).getByRole('button', { name: 'Send a test event' }));
    expect(await within(drawer).findByText('Test event')).toBeInTheDocument();
    expect(within(drawer).getByText('204')).toBeInTheDocument();
    expect(sent.tests).toEqual([1]);
    expect(await screen.findByText(webhookMessages.testQueued)).toBeInTheDocument();
  });

  it('reads the log again every 5 seconds while it is open, and no more once closed', async () => {
    const { sent } = serveWebhooks(twoWebhooks(), { 1: log() });
    await openSettings();
    const user = useFakeTimersForUser();
    await user.click(button('Delivery log of https://billing.example.com/hooks'));
    const drawer = await deliveryLog();
    await within(drawer).findByText('vm.delete');
    // Finding it may have moved the clock a little, never a whole period.
    const reads = sent.deliveryReads.length;
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(sent.deliveryReads).toHaveLength(reads + 1);
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(sent.deliveryReads).toHaveLength(reads + 2);
    expect(new Set(sent.deliveryReads)).toEqual(new Set([1]));

    await user.keyboard('{Escape}');
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(15_000));
    expect(sent.deliveryReads).toHaveLength(reads + 2);
  });
});

describe('Settings: webhooks, live', () => {
  it('reads the list again when a webhook is disabled elsewhere', async () => {
    installEventSource();
    const hooks = twoWebhooks();
    const { sent, store } = serveWebhooks(hooks);
    await openSettings();
    FakeEventSource.latest().open();
    store[0]!.disabledAt = '2026-11-27T12:00:00.000Z';
    store[0]!.disabledReason = 'Event 4130 failed for 24 hours: HTTP 500';
    const before = sent.lists;
    FakeEventSource.latest().send(
      anEvent(5, {
        subject: { type: 'webhook', id: 1, name: 'https://billing.example.com' },
        action: 'webhook.disable',
        outcome: 'succeeded',
        actor: { type: 'system', id: null, name: 'System' },
        teamId: null,
        operationId: null,
      }),
    );
    const billing = rowOf('https://billing.example.com/hooks');
    expect(await within(billing).findByText(/HTTP 500/)).toBeInTheDocument();
    expect(within(billing).getByText('Disabled')).toBeInTheDocument();
    expect(sent.lists).toBe(before + 1);
  });
});
