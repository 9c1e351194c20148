import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createSnapshotBody,
  createSnapshotResponse,
  listSnapshotsResponse,
  snapshotActionResponse,
  snapshotIdParam,
  snapshotMessages,
  snapshotVmIdParam,
} from '../../src/api/contract/vm-snapshots';
import {
  createSnapshot,
  deleteSnapshot,
  listSnapshots,
  restoreSnapshot,
} from '../domain/vms/vm-snapshots';
import { caller } from '../plugins/authenticate';
import type { RouteOptions } from './deps';

/** A VM's snapshots (under /virtualMachines/snapshots): each write is a durable operation. */
export const vmSnapshotRoutes: FastifyPluginAsyncZod<RouteOptions> = async (app, { deps }) => {
  const { db, clock, jobs } = deps;
  const acted = { params: snapshotIdParam, response: { 200: snapshotActionResponse } };

  app.get(
    '/list/:vmId',
    { schema: { params: snapshotVmIdParam, response: { 200: listSnapshotsResponse } } },
    async (request) => ({
      data: await listSnapshots(db, caller(request), request.params.vmId),
      message: 'OK',
    }),
  );

  app.post(
    '/create/:vmId',
    {
      schema: {
        params: snapshotVmIdParam,
        body: createSnapshotBody,
        response: { 200: createSnapshotResponse },
      },
    },
    async (request) => {
      const id = await createSnapshot(db, caller(request), request.params.vmId, request.body.name, {
        now: clock.now(),
        limits: deps.config.limits,
      });
      jobs.nudge();
      request.log.info({ vmId: request.params.vmId, snapshotId: id }, 'snapshot ordered');
      return { data: { id }, message: snapshotMessages.creating };
    },
  );

  app.post('/restore/:snapshotId', { schema: acted }, async (request) => {
    await restoreSnapshot(db, caller(request), request.params.snapshotId, clock.now());
    jobs.nudge();
    return { data: null, message: snapshotMessages.restoring };
  });

  app.delete('/delete/:snapshotId', { schema: acted }, async (request) => {
    await deleteSnapshot(db, caller(request), request.params.snapshotId, clock.now());
    jobs.nudge();
    return { data: null, message: snapshotMessages.deleting };
  });
};
