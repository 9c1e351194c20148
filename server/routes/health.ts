import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  apiHealthResponse,
  healthResponse,
  readinessResponse,
  remoteHealthResponse,
} from '../../src/api/contract/health';
import { driverHealth } from '../domain/monitoring/diagnostics';
import { livenessReport, readinessReport } from '../readiness';
import { version } from '../version';
import type { RouteOptions } from './deps';

/**
 * Checks of the database or the engines a client address may make a minute: plenty for a monitor,
 * too few for a loop to weigh on the pool or on the engines' sign-ins and SSH sessions.
 */
export const HEALTH_CHECKS_PER_MINUTE = 60;

/**
 * Readiness checks a client address may make a minute: a load balancer polls each process every
 * second or two, from one address for all of them; concurrent checks share one database query.
 */
export const READINESS_CHECKS_PER_MINUTE = 300;

/** A database that has not answered the readiness check's query by then is unavailable. */
export const READINESS_DATABASE_TIMEOUT_MS = 2_000;

/**
 * Liveness of the process, of the database and of the engines, and the process's readiness for
 * traffic, without authentication.
 */
export const healthRoutes: FastifyPluginAsyncZod<RouteOptions> = async (app, { deps }) => {
  const limited = {
    auth: 'public' as const,
    rateLimit: {
      max: HEALTH_CHECKS_PER_MINUTE,
      timeWindow: 60_000,
      keyGenerator: (request: FastifyRequest) => request.ip,
    },
  };

  app.get(
    '/api',
    { config: { auth: 'public' }, schema: { response: { 200: apiHealthResponse } } },
    async () => livenessReport(version),
  );

  app.get(
    '/database',
    {
      config: limited,
      schema: { response: { 200: healthResponse, 503: healthResponse } },
    },
    async (request, reply) => {
      const started = performance.now();
      try {
        await deps.db.execute(sql`select 1`);
        const latencyMs = Math.round((performance.now() - started) * 100) / 100;
        return { data: { status: 'ok' as const, latencyMs }, message: 'Database is healthy' };
      } catch (err) {
        request.log.error({ err }, 'database health check failed');
        return reply
          .code(503)
          .send({ data: { status: 'unavailable' as const }, message: 'Database is unavailable' });
      }
    },
  );

  // One query answers every check that comes while it runs; each check waits for it at most
  // READINESS_DATABASE_TIMEOUT_MS, after which the next check asks anew: a hung database gets at
  // most one query per timeout, and a database back answers the next check.
  let databaseQuery: Promise<boolean> | undefined;
  function databaseAnswers(): Promise<boolean> {
    const query = (databaseQuery ??= deps.db
      .execute(sql`select 1`)
      .then(
        () => true,
        (err: unknown) => {
          app.log.error({ err }, 'readiness check: the database did not answer');
          return false;
        },
      )
      .finally(() => {
        if (databaseQuery === query) databaseQuery = undefined;
      }));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => {
        if (databaseQuery === query) databaseQuery = undefined;
        resolve(false);
      }, READINESS_DATABASE_TIMEOUT_MS);
    });
    return Promise.race([query, timeout]).finally(() => clearTimeout(timer));
  }

  app.get(
    '/ready',
    {
      config: {
        auth: 'public',
        rateLimit: {
          max: READINESS_CHECKS_PER_MINUTE,
          timeWindow: 60_000,
          keyGenerator: (request: FastifyRequest) => request.ip,
        },
      },
      schema: { response: { 200: readinessResponse, 503: readinessResponse } },
    },
    async (_request, reply) => {
      const database = (await databaseAnswers()) ? 'ok' : 'unavailable';
      // Read after the query: a shutdown that began meanwhile is told at once.
      const { statusCode, body } = readinessReport(deps.readiness.state, database);
      return reply.code(statusCode).send(body);
    },
  );

  app.get(
    '/remoteAPI',
    {
      config: limited,
      schema: { response: { 200: remoteHealthResponse, 503: remoteHealthResponse } },
    },
    async (request, reply) => {
      const health = await driverHealth(deps.drivers, deps.clock);
      const drivers = [...health.entries()].map(([driver, seen]) => ({
        driver,
        status: seen.ok ? ('ok' as const) : ('unavailable' as const),
        latencyMs: seen.latencyMs,
      }));
      const ok = drivers.every((d) => d.status === 'ok');
      // The engine's own words stay in the log; the public answer only says whether it answers.
      for (const [driver, seen] of health) {
        if (!seen.ok) request.log.warn({ driver, detail: seen.detail }, 'provider unreachable');
      }
      return reply.code(ok ? 200 : 503).send({
        data: { status: ok ? 'ok' : 'unavailable', drivers },
        message: ok ? 'Providers are reachable' : 'A provider is unreachable',
      });
    },
  );
};
