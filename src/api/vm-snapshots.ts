import {
  createSnapshotResponse,
  listSnapshotsResponse,
  snapshotActionResponse,
  type CreateSnapshotBody,
} from './contract/vm-snapshots';
import { request } from './client';

const base = 'virtualMachines/snapshots';

export const listSnapshots = (vmId: number) =>
  request('get', `${base}/list/${vmId}`, listSnapshotsResponse).then((r) => r.data);

export const createSnapshot = ({ vmId, ...body }: CreateSnapshotBody & { vmId: number }) =>
  request('post', `${base}/create/${vmId}`, createSnapshotResponse, { json: body });

export const restoreSnapshot = (snapshotId: number) =>
  request('post', `${base}/restore/${snapshotId}`, snapshotActionResponse);

export const deleteSnapshot = (snapshotId: number) =>
  request('delete', `${base}/delete/${snapshotId}`, snapshotActionResponse);
