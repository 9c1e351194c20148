import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  cidrDetailsQuery,
  cidrDetailsResponse,
  connectedVmsResponse,
  createNetworkBody,
  createNetworkResponse,
  listNetworksQuery,
  listNetworksResponse,
  netAdaptersResponse,
  networkActionResponse,
  networkDetailsResponse,
  networkIdParam,
  networkMessages,
  updateNetworkBody,
} from '../../src/api/contract/networks';
import { visibleTeamIds } from '../domain/tenancy/access';
import {
  allocateInterfacePublicIp,
  listNetAdapters,
  releaseInterfacePublicIp,
} from '../domain/networks/interfaces';
import {
  cidrDetails,
  getNetworkDetails,
  listNetworks,
  listNetworkVms,
} from '../domain/networks/network-queries';
import { createNetwork, deleteNetwork, updateNetwork } from '../domain/networks/network-writes';
import { caller } from '../plugins/authenticate';
import type { RouteOptions } from './deps';

/** Networks, and the public addresses of VM interfaces (`:id` of those is the interface's). */
export const networkRoutes: FastifyPluginAsyncZod<RouteOptions> = async (app, { deps }) => {
  const { db, clock, jobs } = deps;
  const byId = { params: networkIdParam };
  const action = { ...byId, response: { 200: networkActionResponse } };

  app.get(
    '/list',
    { schema: { querystring: listNetworksQuery, response: { 200: listNetworksResponse } } },
    async (request) => ({
      data: await listNetworks(db, caller(request), request.query),
      message: 'OK',
    }),
  );

  app.get(
    '/getCIDRDetails',
    { schema: { querystring: cidrDetailsQuery, response: { 200: cidrDetailsResponse } } },
    async (request) => ({
      data: await cidrDetails(db, caller(request), request.query),
      message: 'OK',
    }),
  );

  app.get(
    '/:id',
    { schema: { ...byId, response: { 200: networkDetailsResponse } } },
    async (request) => ({
      data: await getNetworkDetails(db, caller(request), request.params.id),
      message: 'OK',
    }),
  );

  app.get(
    '/:id/vmsForNetwork',
    { schema: { ...byId, response: { 200: connectedVmsResponse } } },
    async (request) => {
      const who = caller(request);
      return {
        data: await listNetworkVms(db, who, request.params.id, await visibleTeamIds(db, who)),
        message: 'OK',
      };
    },
  );

  app.get(
    '/listNetAdapters/:id',
    { schema: { ...byId, response: { 200: netAdaptersResponse } } },
    async (request) => ({
      data: await listNetAdapters(db, caller(request), request.params.id),
      message: 'OK',
    }),
  );

  app.post(
    '/create',
    { schema: { body: createNetworkBody, response: { 200: createNetworkResponse } } },
    async (request) => {
      const id = await createNetwork(
        db,
        caller(request),
        request.body,
        clock.now(),
        deps.config.limits,
      );
      jobs.nudge();
      request.log.info({ networkId: id }, 'network created');
      return { data: { id }, message: networkMessages.created };
    },
  );

  app.put('/update/:id', { schema: { ...action, body: updateNetworkBody } }, async (request) => {
    await updateNetwork(db, caller(request), request.params.id, request.body, clock.now());
    jobs.nudge();
    return { data: null, message: networkMessages.updated };
  });

  app.delete('/delete/:id', { schema: action }, async (request) => {
    await deleteNetwork(db, caller(request), request.params.id, clock.now());
    jobs.nudge();
    request.log.info({ networkId: request.params.id }, 'network deleted');
    return { data: null, message: networkMessages.deleting };
  });

  app.post('/allocatePublicIp/:id', { schema: action }, async (request) => {
    await allocateInterfacePublicIp(
      db,
      caller(request),
      request.params.id,
      clock.now(),
      deps.config.limits,
    );
    jobs.nudge();
    return { data: null, message: networkMessages.ipAllocated };
  });

  app.delete('/releasePublicIp/:id', { schema: action }, async (request) => {
    await releaseInterfacePublicIp(db, caller(request), request.params.id, clock.now());
    jobs.nudge();
    return { data: null, message: networkMessages.ipReleased };
  });
};
