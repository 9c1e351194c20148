import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerAuthentication } from '../plugins/authenticate';
import { authRoutes } from './auth';
import { clientErrorRoutes } from './client-errors';
import type { RouteOptions } from './deps';
import { healthRoutes } from './health';
import { importRoutes } from './imports';
import { networkRoutes } from './networks';
import { permissionRoutes } from './permissions';
import { roleRoutes } from './roles';
import { supportRoutes } from './support';
import { teamRoutes } from './teams';
import { userRoutes } from './users';
import { vmRoutes } from './vms';

export const apiRoutes: FastifyPluginAsyncZod<RouteOptions> = async (app, { deps }) => {
  registerAuthentication(app, deps);
  await app.register(healthRoutes, { prefix: '/healthCheck', deps });
  await app.register(authRoutes, { prefix: '/auth', deps });
  await app.register(userRoutes, { prefix: '/users', deps });
  await app.register(teamRoutes, { prefix: '/teams', deps });
  await app.register(roleRoutes, { prefix: '/roles', deps });
  await app.register(permissionRoutes, { prefix: '/permissions', deps });
  await app.register(importRoutes, { prefix: '/imports', deps });
  await app.register(vmRoutes, { prefix: '/virtualMachines', deps });
  await app.register(networkRoutes, { prefix: '/networks', deps });
  await app.register(supportRoutes, { prefix: '/support', deps });
  await app.register(clientErrorRoutes, { deps });
};
