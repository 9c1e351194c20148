import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { providerDiagnosticsResponse } from '../../src/api/contract/health';
import { providerDiagnostics } from '../domain/monitoring/diagnostics';
import { caller } from '../plugins/authenticate';
import type { RouteOptions } from './deps';

/** Diagnostics for a company's Admins. */
export const debugRoutes: FastifyPluginAsyncZod<RouteOptions> = async (app, { deps }) => {
  app.get(
    '/debugSharktech',
    { schema: { response: { 200: providerDiagnosticsResponse } } },
    async (request) => ({
      data: await providerDiagnostics(deps.db, deps.drivers, caller(request), deps.clock),
      message: 'OK',
    }),
  );
};
