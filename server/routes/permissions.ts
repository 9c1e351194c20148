import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RouteOptions } from './deps';

/** Per-team permissions: who holds which role, and bulk assignment. */
export const permissionRoutes: FastifyPluginAsyncZod<RouteOptions> = async (
  _app,
  { deps: _deps },
) => {};
