import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RouteOptions } from './deps';

/** Teams: list, details, create, update, members, delete. */
export const teamRoutes: FastifyPluginAsyncZod<RouteOptions> = async (_app, { deps: _deps }) => {};
