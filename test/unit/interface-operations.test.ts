import type { Query } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { NetworkAdapter } from '../../src/api/contract/networks';
import { INTERFACE_POLL_MS, networkQueries } from '../../src/queries/networks';
import {
  outcomeOf,
  type Operation,
} from '../../src/routes/_app/virtualMachineDetails/-components/interfaces/interface-operations';

const adapter = (id: number, overrides: Partial<NetworkAdapter> = {}): NetworkAdapter => ({
  id,
  vmnic: id,
  networkId: 100 + id,
  networkName: `net-${id}`,
  cidrBlock: `10.${id}.0.0/24`,
  gatewayIp: `10.${id}.0.1`,
  privateIp: `10.${id}.0.5`,
  macAddress: `fa:16:3e:00:00:0${id}`,
  publicIp: null,
  snatEnabled: true,
  status: 'Active',
  statusMessage: null,
  ...overrides,
});

/** The interval React Query would use for the adapters query in this state. */
function intervalOf(waiting: boolean, state: { status: string; data?: NetworkAdapter[] }) {
  const interval = networkQueries.adapters(12, waiting).refetchInterval as unknown as (
    query: Query,
  ) => number | false;
  return interval({ state } as unknown as Query);
}

describe('polling the interfaces of a VM', () => {
  it.each(['Attaching', 'Detaching'] as const)('polls while an interface is %s', (status) => {
    expect(
      intervalOf(false, { status: 'success', data: [adapter(1), adapter(2, { status })] }),
    ).toBe(INTERFACE_POLL_MS);
  });

  it('polls while the screen waits for an operation, and not otherwise', () => {
    const data = [adapter(1), adapter(2, { status: 'Error' })];
    expect(intervalOf(true, { status: 'success', data })).toBe(INTERFACE_POLL_MS);
    expect(intervalOf(false, { status: 'success', data })).toBe(false);
  });

  it('stops after a failed refresh instead of failing every few seconds', () => {
    expect(intervalOf(true, { status: 'error', data: [adapter(1, { status: 'Attaching' })] })).toBe(
      false,
    );
  });
});

describe('the outcome of an interface operation', () => {
  const add: Operation = { kind: 'add', interfaceId: 2, message: null };
  const remove: Operation = { kind: 'remove', interfaceId: 2, message: null };
  const allocate: Operation = { kind: 'allocate', interfaceId: 2, message: null };
  const release: Operation = { kind: 'release', interfaceId: 2, message: null };

  it('an interface being added is done once Active, failed once in Error or gone', () => {
    expect(outcomeOf(add, [adapter(2, { status: 'Attaching' })])).toEqual({ settled: false });
    expect(outcomeOf(add, [adapter(2)])).toEqual({ settled: true });
    expect(outcomeOf(add, [adapter(2, { status: 'Error', statusMessage: 'No port' })])).toEqual({
      settled: true,
      failure: 'No port',
    });
    expect(outcomeOf(add, [adapter(1)])).toEqual({ settled: true, failure: null });
  });

  it('an interface being removed is done once gone, failed once Active again', () => {
    expect(outcomeOf(remove, [adapter(2, { status: 'Detaching' })])).toEqual({ settled: false });
    expect(outcomeOf(remove, [adapter(1)])).toEqual({ settled: true });
    expect(outcomeOf(remove, [adapter(2, { statusMessage: 'Removal failed: port busy' })])).toEqual(
      { settled: true, failure: 'Removal failed: port busy' },
    );
  });

  it('takes only a new message on the interface for a failed public IP change', () => {
    const old = 'Public IP allocation failed: earlier';
    const again = { ...allocate, message: old };
    expect(outcomeOf(again, [adapter(2, { statusMessage: old })])).toEqual({ settled: false });
    expect(
      outcomeOf(again, [adapter(2, { statusMessage: 'Public IP allocation failed: pool empty' })]),
    ).toEqual({ settled: true, failure: 'Public IP allocation failed: pool empty' });
    expect(
      outcomeOf(release, [
        adapter(2, { publicIp: '203.0.113.9', statusMessage: 'Public IP release failed: busy' }),
      ]),
    ).toEqual({ settled: true, failure: 'Public IP release failed: busy' });
  });

  it('takes the same message again as a failure once the list has shown it cleared', () => {
    // The server clears the message when it accepts the retry; the retry fails alike.
    const old = 'Public IP allocation failed: engine busy';
    const retry = { ...allocate, message: old };
    const failedAgain = [adapter(2, { statusMessage: old })];
    expect(outcomeOf(retry, failedAgain, false)).toEqual({ settled: false });
    expect(outcomeOf(retry, failedAgain, true)).toEqual({ settled: true, failure: old });
  });

  it('a public IP is allocated once the interface shows one, released once it shows none', () => {
    expect(outcomeOf(allocate, [adapter(2)])).toEqual({ settled: false });
    expect(outcomeOf(allocate, [adapter(2, { publicIp: '203.0.113.9' })])).toEqual({
      settled: true,
    });
    expect(outcomeOf(release, [adapter(2, { publicIp: '203.0.113.9' })])).toEqual({
      settled: false,
    });
    expect(outcomeOf(release, [adapter(2)])).toEqual({ settled: true });
    expect(
      outcomeOf(allocate, [adapter(2, { status: 'Error', statusMessage: 'Pool exhausted' })]),
    ).toEqual({ settled: true, failure: 'Pool exhausted' });
  });
});
