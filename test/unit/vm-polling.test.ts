import type { Query } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { VmDetails, VmPage, VmStatus } from '../../src/api/contract/vms';
import { VM_STATUS_POLL_MS, vmQueries } from '../../src/queries/vms';

const page = (...statuses: VmStatus[]): VmPage => ({
  data: statuses.map((status, i) => ({
    id: i + 1,
    name: `vm-${i + 1}`,
    status,
    configuration: 'Small',
    cpu: 6,
    ram: 10,
    createdAt: new Date(),
    primaryIp: null,
  })),
  totalPages: 1,
});

const details = (status: VmStatus) => ({ status }) as VmDetails;

/** The interval React Query would use for a query in this state. */
function intervalOf<T>(
  options: { refetchInterval?: unknown },
  state: { status: 'pending' | 'success' | 'error'; data: T | undefined },
) {
  const interval = options.refetchInterval as (query: Query) => number | false;
  return interval({ state } as unknown as Query);
}

const listOptions = vmQueries.list({
  page: 1,
  rowsPerPage: 10,
  search: '',
  sortColumn: 'name',
  sortDescending: false,
});

describe('VM status polling', () => {
  it.each(['Provisioning', 'Starting', 'Stopping', 'Resizing'] as const)(
    'polls the list while a row is %s',
    (status) => {
      const data = page('Running', status, 'Stopped');
      expect(intervalOf(listOptions, { status: 'success', data })).toBe(VM_STATUS_POLL_MS);
    },
  );

  it('stops polling the list once every row has settled', () => {
    const data = page('Running', 'Stopped', 'Shutoff', 'Error');
    expect(intervalOf(listOptions, { status: 'success', data })).toBe(false);
    expect(intervalOf(listOptions, { status: 'pending', data: undefined })).toBe(false);
  });

  it('polls the details while the VM moves, and not after it settles', () => {
    const options = vmQueries.detail(12);
    expect(intervalOf(options, { status: 'success', data: details('Starting') })).toBe(
      VM_STATUS_POLL_MS,
    );
    expect(intervalOf(options, { status: 'success', data: details('Running') })).toBe(false);
  });

  it('stops polling after a failed refresh instead of failing every few seconds', () => {
    const data = page('Provisioning');
    expect(intervalOf(listOptions, { status: 'error', data })).toBe(false);
    expect(intervalOf(vmQueries.detail(12), { status: 'error', data: details('Starting') })).toBe(
      false,
    );
  });

  it('polls every few seconds', () => {
    expect(VM_STATUS_POLL_MS).toBeGreaterThanOrEqual(2_000);
    expect(VM_STATUS_POLL_MS).toBeLessThanOrEqual(3_000);
  });
});
