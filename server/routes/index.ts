import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RouteOptions } from './deps';
import { healthRoutes } from './health';

export const apiRoutes: FastifyPluginAsyncZod<RouteOptions> = async (app, { deps }) => {
  await app.register(healthRoutes, { prefix: '/healthCheck', deps });
};
