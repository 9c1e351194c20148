import type { FastifyRequest } from 'fastify';
import type { Config } from '../config';

/** The per-route, per-client-address limit of every route that can be used to guess secrets. */
export const authRateLimit = (config: Pick<Config, 'rateLimits'>) => ({
  max: config.rateLimits.authPerMinute,
  timeWindow: 60_000,
  keyGenerator: (request: FastifyRequest) => request.ip,
});
