import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CLIENT_ERROR_BODY_LIMIT,
  clientErrorReport,
  clientErrorReportResponse,
} from '../../src/api/contract/client-errors';
import { logClientErrors } from '../domain/monitoring/client-error-log';
import type { RouteOptions } from './deps';

/** Reports a client address may send a minute: a page stuck in an error loop cannot flood the log. */
export const CLIENT_ERROR_REPORTS_PER_MINUTE = 30;

/** `POST /logging`: the console's error reports, logged with pino. */
export const clientErrorRoutes: FastifyPluginAsyncZod<RouteOptions> = async (app) => {
  app.post(
    '/logging',
    {
      // Public: errors happen on the sign-in pages too. Limited and capped instead.
      config: {
        auth: 'public',
        rateLimit: {
          max: CLIENT_ERROR_REPORTS_PER_MINUTE,
          timeWindow: 60_000,
          keyGenerator: (request) => request.ip,
        },
      },
      bodyLimit: CLIENT_ERROR_BODY_LIMIT,
      schema: { body: clientErrorReport, response: { 200: clientErrorReportResponse } },
    },
    async (request) => {
      logClientErrors(request.log, request.body, request.ip);
      return { data: { received: request.body.events.length }, message: 'Report received' };
    },
  );
};
