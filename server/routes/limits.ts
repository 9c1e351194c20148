import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { companyLimitsResponse } from '../../src/api/contract/limits';
import { listLimits } from '../domain/limits/limits-overview';
import { caller } from '../plugins/authenticate';
import type { RouteOptions } from './deps';

/** What the caller's company may hold and still create: the create screens say what is left. */
export const limitRoutes: FastifyPluginAsyncZod<RouteOptions> = async (app, { deps }) => {
  app.get('/limits', { schema: { response: { 200: companyLimitsResponse } } }, async (request) => ({
    data: await listLimits(deps.db, caller(request).companyId, deps.config.limits),
    message: 'OK',
  }));
};
