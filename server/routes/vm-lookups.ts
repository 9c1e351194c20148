import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  combinedRegionsResponse,
  configurationsResponse,
  listImagesQuery,
  listProvidersQuery,
  lookupIdParam,
  lookupListResponse,
  regionIdParam,
  regionResponse,
  vmConfigurationsQuery,
} from '../../src/api/contract/vms';
import {
  getRegion,
  listCities,
  listCombinedRegions,
  listConfigurations,
  listCountries,
  listImages,
  listProviders,
  listVmImages,
  listRegionConfigurations,
  listRegions,
  listVmConfigurations,
} from '../domain/vms/vm-lookups';
import { caller } from '../plugins/authenticate';
import type { RouteOptions } from './deps';

const ok = <T>(data: T) => ({ data, message: 'OK' });

/** The catalogue behind the create cascade and the upgrade modal (under /virtualMachines). */
export const vmLookupRoutes: FastifyPluginAsyncZod<RouteOptions> = async (app, { deps }) => {
  const { db } = deps;
  const list = { response: { 200: lookupListResponse } };

  app.get('/listCountries', { schema: list }, async () => ok(await listCountries(db)));

  app.get('/listRegions/:id', { schema: { ...list, params: lookupIdParam } }, async (request) =>
    ok(await listRegions(db, request.params.id)),
  );

  app.get('/listCities/:id', { schema: { ...list, params: lookupIdParam } }, async (request) =>
    ok(await listCities(db, request.params.id)),
  );

  app.get(
    '/listCombinedRegions',
    { schema: { response: { 200: combinedRegionsResponse } } },
    async () => ok(await listCombinedRegions(db)),
  );

  app.get(
    '/getRegion/:id',
    { schema: { params: lookupIdParam, response: { 200: regionResponse } } },
    async (request) => ok(await getRegion(db, request.params.id)),
  );

  app.get(
    '/listImages/:id',
    { schema: { ...list, params: lookupIdParam, querystring: listImagesQuery } },
    async (request) => {
      const { vmId } = request.query;
      return ok(
        vmId === undefined
          ? await listImages(db, request.params.id)
          : await listVmImages(db, caller(request), request.params.id, vmId),
      );
    },
  );

  app.get(
    '/listConfigurations',
    { schema: { response: { 200: configurationsResponse } } },
    async () => ok(await listConfigurations(db)),
  );

  app.get(
    '/listProviders/:regionId',
    { schema: { ...list, params: regionIdParam, querystring: listProvidersQuery } },
    async (request) => ok(await listProviders(db, request.params.regionId, request.query)),
  );

  app.get(
    '/fetchVirtualMachineConfigurations/:regionId',
    {
      schema: {
        params: regionIdParam,
        querystring: vmConfigurationsQuery,
        response: { 200: configurationsResponse },
      },
    },
    async (request) => {
      const { regionId } = request.params;
      const { imageId, vmId } = request.query;
      return ok(
        vmId === undefined
          ? await listRegionConfigurations(db, regionId, imageId!)
          : await listVmConfigurations(db, caller(request), regionId, vmId),
      );
    },
  );
};
