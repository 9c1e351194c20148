import { mutationOptions, queryOptions } from '@tanstack/react-query';
import type { SnapshotList } from '../api/contract/vm-snapshots';
import {
  createSnapshot,
  deleteSnapshot,
  listSnapshots,
  restoreSnapshot,
} from '../api/vm-snapshots';
import { isLive } from '../live/stream-state';
import { vmKeys } from './vms';

/**
 * A VM's snapshots, under its details key: every event of the VM (a snapshot taken, restored or
 * deleted included) marks its details stale, and so its snapshots with them.
 */
export const snapshotKeys = {
  of: (vmId: number) => [...vmKeys.detail(vmId), 'snapshots'] as const,
};

const moving = (list: SnapshotList) =>
  list.snapshots.some((s) => s.status !== 'available' && s.status !== 'error');

export const snapshotQueries = {
  of: (vmId: number) =>
    queryOptions({
      queryKey: snapshotKeys.of(vmId),
      queryFn: () => listSnapshots(vmId),
      // With the live stream down, what is under way is asked again until it ends.
      refetchInterval: (query) =>
        !isLive() && query.state.status !== 'error' && query.state.data && moving(query.state.data)
          ? 2_500
          : false,
    }),
};

/** A restore changes the VM's status too: its details (and the lists) are read again. */
export const snapshotMutations = {
  create: (vmId: number) =>
    mutationOptions({
      mutationFn: (name: string) => createSnapshot({ vmId, name }),
      meta: { invalidates: [snapshotKeys.of(vmId)] },
    }),
  restore: (vmId: number) =>
    mutationOptions({
      mutationFn: restoreSnapshot,
      meta: { invalidates: [vmKeys.detail(vmId), vmKeys.lists()] },
    }),
  delete: (vmId: number) =>
    mutationOptions({
      mutationFn: deleteSnapshot,
      meta: { invalidates: [snapshotKeys.of(vmId)] },
    }),
};
