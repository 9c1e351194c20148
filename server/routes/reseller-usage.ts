import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { usageQuery, usageResponse } from '../../src/api/contract/usage';
import { z } from '../../src/api/contract/zod';
import { usageCsv } from '../domain/reseller/usage-csv';
import { reportUsage } from '../domain/reseller/usage-report';
import { caller } from '../plugins/authenticate';
import type { RouteOptions } from './deps';

/**
 * Usage for billing, for a reseller's staff (and their API tokens): a month of its customers'
 * VM and public-IP hours and snapshot GB-hours, as JSON or CSV (docs/billing.md). Anyone else gets the 404 of a route
 * that does not exist, as on every `/reseller/…` route.
 */
export const resellerUsageRoutes: FastifyPluginAsyncZod<RouteOptions> = async (app, { deps }) => {
  app.get(
    '/usage',
    {
      config: { resellerOnly: true },
      schema: {
        description:
          'A month (UTC) of usage for billing, per customer company: each VM’s size periods with ' +
          'the hours it existed and ran in each, each public address’s hours, each snapshot’s ' +
          'size and GB-hours (GB = 2^30 bytes), and totals. A month not over counts up to now; a ' +
          'month over always answers the same figures. `format=csv` answers the same as ' +
          '`text/csv` (one row per VM size period, public address period, snapshot period, and a ' +
          'total per company; columns added later come last), as an attachment ' +
          '`usage-<month>.csv`. ' +
          'See docs/billing.md.',
        querystring: usageQuery,
        response: {
          200: {
            description: 'The usage: JSON, or CSV with `format=csv`',
            content: {
              'application/json': { schema: usageResponse },
              'text/csv': { schema: z.string() },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const { month, format, companyId } = request.query;
      const usage = await reportUsage(
        deps.db,
        caller(request),
        { month, companyId },
        deps.clock.now(),
      );
      if (format === 'json') {
        reply.type('application/json; charset=utf-8');
        return { data: usage, message: 'OK' };
      }
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="usage-${usage.month}.csv"`);
      return usageCsv(usage);
    },
  );
};
