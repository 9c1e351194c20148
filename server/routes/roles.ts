import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RouteOptions } from './deps';

/** The fixed roles and per-team role changes. */
export const roleRoutes: FastifyPluginAsyncZod<RouteOptions> = async (_app, { deps: _deps }) => {};
