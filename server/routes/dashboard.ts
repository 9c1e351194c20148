import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dashboardSummaryResponse } from '../../src/api/contract/dashboard';
import { getDashboardSummary } from '../domain/vms/dashboard-summary';
import { caller } from '../plugins/authenticate';
import type { RouteOptions } from './deps';

/** The Dashboard's figures, above its tabs (its VM usage is `/virtualMachines/GetDashboardData`). */
export const dashboardRoutes: FastifyPluginAsyncZod<RouteOptions> = async (app, { deps }) => {
  app.get(
    '/summary',
    { schema: { response: { 200: dashboardSummaryResponse } } },
    async (request) => ({
      data: await getDashboardSummary(deps.db, caller(request), deps.clock.now()),
      message: 'OK',
    }),
  );
};
