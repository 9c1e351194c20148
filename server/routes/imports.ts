import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RouteOptions } from './deps';

/** The operator bulk imports of distributers, resellers and companies. */
export const importRoutes: FastifyPluginAsyncZod<RouteOptions> = async (
  _app,
  { deps: _deps },
) => {};
