import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerAuthentication } from '../plugins/authenticate';
import { activityRoutes } from './activity';
import { apiTokenRateLimit } from './api-token-rate-limit';
import { apiTokenRoutes } from './api-tokens';
import { authRoutes } from './auth';
import { PUBLIC_BODY_LIMIT } from './auth-rate-limit';
import { clientErrorRoutes } from './client-errors';
import { dashboardRoutes } from './dashboard';
import type { RouteOptions } from './deps';
import { debugRoutes } from './debug';
import { healthRoutes } from './health';
import { importRoutes } from './imports';
import { limitRoutes } from './limits';
import { networkRoutes } from './networks';
import { passkeyRoutes } from './passkeys';
import { permissionRoutes } from './permissions';
import { resellerRoutes } from './reseller';
import { resellerSettingsRoutes } from './reseller-settings';
import { resellerUsageRoutes } from './reseller-usage';
import { roleRoutes } from './roles';
import { companyPolicyRoutes, secondFactorRoutes } from './second-factor';
import { sessionRoutes } from './sessions';
import { simFaultRoutes } from './sim-faults';
import { sshKeyRoutes } from './ssh-keys';
import { supportRoutes } from './support';
import { teamRoutes } from './teams';
import { userRoutes } from './users';
import { vmRoutes } from './vms';
import { webhookRoutes } from './webhooks';

export const apiRoutes: FastifyPluginAsyncZod<RouteOptions> = async (app, { deps }) => {
  app.addHook('onRequest', apiTokenRateLimit(app, deps.config));
  registerAuthentication(app, deps);
  // Answers are one caller's own, and some hold secrets (a session token, a VM's password or
  // private key, a console link): no cache, shared or the browser's, ever keeps one.
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  app.addHook('onRoute', (route) => {
    const auth = route.config?.auth;
    if ((auth === 'public' || auth === 'pending') && route.bodyLimit === undefined) {
      route.bodyLimit = PUBLIC_BODY_LIMIT;
    }
  });
  await app.register(healthRoutes, { prefix: '/healthCheck', deps });
  await app.register(authRoutes, { prefix: '/auth', deps });
  await app.register(passkeyRoutes, { prefix: '/auth/passkeys', deps });
  await app.register(secondFactorRoutes, { prefix: '/auth', deps });
  await app.register(companyPolicyRoutes, { prefix: '/company', deps });
  await app.register(userRoutes, { prefix: '/users', deps });
  await app.register(apiTokenRoutes, { prefix: '/apiTokens', deps });
  await app.register(sshKeyRoutes, { prefix: '/sshKeys', deps });
  await app.register(sessionRoutes, { prefix: '/sessions', deps });
  await app.register(teamRoutes, { prefix: '/teams', deps });
  await app.register(webhookRoutes, { prefix: '/webhooks', deps });
  await app.register(roleRoutes, { prefix: '/roles', deps });
  await app.register(permissionRoutes, { prefix: '/permissions', deps });
  await app.register(importRoutes, { prefix: '/imports', deps });
  await app.register(vmRoutes, { prefix: '/virtualMachines', deps });
  await app.register(networkRoutes, { prefix: '/networks', deps });
  await app.register(dashboardRoutes, { prefix: '/dashboard', deps });
  await app.register(resellerRoutes, { prefix: '/reseller', deps });
  await app.register(resellerSettingsRoutes, { prefix: '/reseller', deps });
  await app.register(resellerUsageRoutes, { prefix: '/reseller', deps });
  await app.register(debugRoutes, { prefix: '/debug', deps });
  await app.register(supportRoutes, { prefix: '/support', deps });
  await app.register(clientErrorRoutes, { deps });
  await app.register(activityRoutes, { deps });
  await app.register(limitRoutes, { deps });
  await app.register(simFaultRoutes, { prefix: '/sim', deps });
};
