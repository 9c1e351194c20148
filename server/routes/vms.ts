import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  changeConfigurationBody,
  createVmBody,
  createVmResponse,
  dashboardDataResponse,
  editVmBody,
  listVmsQuery,
  listVmsResponse,
  reinstallVmBody,
  vmAccessKeyResponse,
  vmActionResponse,
  vmConsoleResponse,
  vmDetailsResponse,
  vmIdParam,
  vmMessages,
  vmPasswordResponse,
} from '../../src/api/contract/vms';
import { deleteVm, editVm, resetVm, resizeVm, startVm, stopVm } from '../domain/vms/vm-actions';
import { createVms } from '../domain/vms/vm-create';
import { reinstallVm } from '../domain/vms/vm-reinstall';
import { getDashboardData } from '../domain/vms/vm-dashboard';
import {
  getVmConsoleUrl,
  getVmDetails,
  getVmPassword,
  getVmPrivateKey,
} from '../domain/vms/vm-details';
import { listVms } from '../domain/vms/vm-list';
import { caller } from '../plugins/authenticate';
import { deriveConsoleTicketKey, type TicketHolder } from '../providers/console-ticket';
import type { RouteOptions } from './deps';
import { vmInterfaceRoutes } from './vm-interfaces';
import { vmLookupRoutes } from './vm-lookups';
import { vmSnapshotRoutes } from './vm-snapshots';

/** Virtual machines: list, details, credentials, console, create, actions, and usage. */
export const vmRoutes: FastifyPluginAsyncZod<RouteOptions> = async (app, { deps }) => {
  const { db, clock, drivers, secrets, jobs } = deps;
  await app.register(vmLookupRoutes, { deps });
  await app.register(vmInterfaceRoutes, { deps });
  await app.register(vmSnapshotRoutes, { prefix: '/snapshots', deps });

  const byId = { params: vmIdParam };
  const consoleTicketKey = deriveConsoleTicketKey(deps.config.appSecret);
  const action = { ...byId, response: { 200: vmActionResponse } };
  /** Waits for a VM action, wakes the reconciler for its operation, and answers its message. */
  const acted = async (
    request: FastifyRequest,
    vmId: number,
    message: string,
    work: Promise<void>,
  ) => {
    await work;
    jobs.nudge();
    request.log.info({ vmId }, message);
    return { data: null, message };
  };

  app.get(
    '/list',
    { schema: { querystring: listVmsQuery, response: { 200: listVmsResponse } } },
    async (request) => ({
      data: await listVms(db, caller(request), request.query),
      message: 'OK',
    }),
  );

  app.get(
    '/GetDashboardData',
    { schema: { response: { 200: dashboardDataResponse } } },
    async (request) => ({
      data: await getDashboardData(db, caller(request), clock.now()),
      message: 'OK',
    }),
  );

  app.get(
    '/details/:id',
    { schema: { ...byId, response: { 200: vmDetailsResponse } } },
    async (request) => ({
      data: await getVmDetails(db, drivers, caller(request), request.params.id, clock.now()),
      message: 'OK',
    }),
  );

  app.get(
    '/getPassword/:id',
    { schema: { ...byId, response: { 200: vmPasswordResponse } } },
    async (request) => {
      const data = await getVmPassword(db, secrets, caller(request), request.params.id);
      request.log.info({ vmId: request.params.id }, 'VM password read');
      return { data, message: 'OK' };
    },
  );

  app.get(
    '/getAccessKey/:id',
    { schema: { ...byId, response: { 200: vmAccessKeyResponse } } },
    async (request) => {
      const data = await getVmPrivateKey(db, secrets, caller(request), request.params.id);
      request.log.info({ vmId: request.params.id }, 'VM private key read');
      return { data, message: 'OK' };
    },
  );

  app.get(
    '/getConsole/:id',
    { schema: { ...byId, response: { 200: vmConsoleResponse } }, config: { grantsControl: true } },
    async (request) => {
      const who = caller(request);
      // The console's ticket is bound to the caller's session, or to their API token.
      const holder: TicketHolder =
        who.sessionId !== null
          ? { kind: 'session', id: who.sessionId }
          : { kind: 'apiToken', id: who.apiTokenId! };
      const data = await getVmConsoleUrl(db, drivers, who, request.params.id, {
        key: consoleTicketKey,
        holder,
        now: clock.now(),
      });
      return { data, message: 'OK' };
    },
  );

  app.post(
    '/create',
    { schema: { body: createVmBody, response: { 200: createVmResponse } } },
    async (request) => {
      const ids = await createVms(db, caller(request), request.body, {
        secrets,
        now: clock.now(),
        limits: deps.config.limits,
      });
      jobs.nudge();
      request.log.info({ vmIds: ids }, 'VMs ordered');
      return { data: { ids }, message: vmMessages.created };
    },
  );

  app.put(
    '/changeConfiguration',
    { schema: { body: changeConfigurationBody, response: { 200: vmActionResponse } } },
    async (request) =>
      acted(
        request,
        request.body.id,
        vmMessages.upgrading,
        resizeVm(db, caller(request), request.body, clock.now(), deps.config.limits),
      ),
  );

  app.put(
    '/edit/:id',
    { schema: { ...byId, body: editVmBody, response: { 200: vmActionResponse } } },
    async (request) => {
      await editVm(db, caller(request), request.params.id, request.body, clock.now());
      return { data: null, message: vmMessages.updated };
    },
  );

  app.delete('/delete/:id', { schema: action }, async (request) =>
    acted(
      request,
      request.params.id,
      vmMessages.deleting,
      deleteVm(db, caller(request), request.params.id, clock.now()),
    ),
  );

  app.post('/start/:id', { schema: action }, async (request) =>
    acted(
      request,
      request.params.id,
      vmMessages.starting,
      startVm(db, caller(request), request.params.id, clock.now()),
    ),
  );

  app.post('/stop/:id', { schema: action }, async (request) =>
    acted(
      request,
      request.params.id,
      vmMessages.stopping,
      stopVm(db, caller(request), request.params.id, clock.now()),
    ),
  );

  app.post('/reinstall/:id', { schema: { ...action, body: reinstallVmBody } }, async (request) =>
    acted(
      request,
      request.params.id,
      vmMessages.reinstalling,
      reinstallVm(
        db,
        caller(request),
        { id: request.params.id, ...request.body },
        { secrets, now: clock.now() },
      ),
    ),
  );

  app.post('/reset/:id', { schema: action }, async (request) =>
    acted(
      request,
      request.params.id,
      vmMessages.resetting,
      resetVm(db, caller(request), request.params.id, clock.now()),
    ),
  );
};
