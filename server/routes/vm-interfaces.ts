import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  addNetworkInterfaceBody,
  addNetworkInterfaceResponse,
  availableNetworksResponse,
  networkActionResponse,
  networkMessages,
  removeNetworkInterfaceParams,
} from '../../src/api/contract/networks';
import { vmIdParam } from '../../src/api/contract/vms';
import {
  addNetworkInterface,
  listAvailableNetworks,
  removeNetworkInterface,
} from '../domain/networks/interfaces';
import { caller } from '../plugins/authenticate';
import type { RouteOptions } from './deps';

/** A VM's network interfaces (under /virtualMachines). */
export const vmInterfaceRoutes: FastifyPluginAsyncZod<RouteOptions> = async (app, { deps }) => {
  const { db, clock, jobs } = deps;

  app.get(
    '/:id/availableNetworks',
    { schema: { params: vmIdParam, response: { 200: availableNetworksResponse } } },
    async (request) => ({
      data: await listAvailableNetworks(db, caller(request), request.params.id),
      message: 'OK',
    }),
  );

  app.post(
    '/:id/addNetworkInterfaces',
    {
      schema: {
        params: vmIdParam,
        body: addNetworkInterfaceBody,
        response: { 200: addNetworkInterfaceResponse },
      },
    },
    async (request) => {
      const interfaceId = await addNetworkInterface(
        db,
        caller(request),
        request.params.id,
        request.body.networkId,
        clock.now(),
      );
      jobs.nudge();
      return { data: { interfaceId }, message: networkMessages.interfaceAdded };
    },
  );

  app.delete(
    '/:id/removeNetworkInterfaces/:networkId',
    { schema: { params: removeNetworkInterfaceParams, response: { 200: networkActionResponse } } },
    async (request) => {
      const { id, networkId } = request.params;
      await removeNetworkInterface(db, caller(request), id, networkId, clock.now());
      jobs.nudge();
      return { data: null, message: networkMessages.interfaceRemoved };
    },
  );
};
