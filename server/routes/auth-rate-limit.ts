import type { FastifyRequest } from 'fastify';
import type { Config } from '../config';

/** The per-route, per-client-address limit of every route that can be used to guess secrets. */
export const authRateLimit = (config: Pick<Config, 'rateLimits'>) => ({
  max: config.rateLimits.authPerMinute,
  timeWindow: 60_000,
  keyGenerator: (request: FastifyRequest) => request.ip,
});

/**
 * The largest body a caller without a verified session may send (sign-in, code, reset, activation:
 * well under 1 KB each): the work a stranger can make the server do stays small.
 */
export const PUBLIC_BODY_LIMIT = 4 * 1024;
