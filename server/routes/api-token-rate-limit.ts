import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authMessages } from '../../src/api/contract/auth';
import type { Config } from '../config';
import { isApiTokenSecret } from '../domain/identity/api-tokens';
import { tooManyRequests } from '../http-error';
import { bearerToken } from '../plugins/authenticate';

/**
 * Every route's limit for a call with an API token: `API_TOKEN_RATE_LIMIT` a minute per token,
 * counted before the token is checked (a guessed token is counted too), by its hash (no secret
 * is kept in the limiter's memory). A limiter of its own (`createRateLimit`), not a rate-limit
 * hook: the plugin runs one hook a request, and the routes' own limits (sign-in, the event
 * stream) must still apply to the same request.
 */
export function apiTokenRateLimit(app: FastifyInstance, config: Pick<Config, 'rateLimits'>) {
  const limit = app.createRateLimit({
    max: config.rateLimits.apiTokenPerMinute,
    timeWindow: 60_000,
    keyGenerator: (request) =>
      `api-token:${createHash('sha256')
        .update(bearerToken(request) ?? '')
        .digest('hex')}`,
  });
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const bearer = bearerToken(request);
    if (!bearer || !isApiTokenSecret(bearer)) return;
    const counted = await limit(request);
    // `isAllowed` says the request was not counted at all; a counted one may still be within.
    if (counted.isAllowed || !counted.isExceeded) return;
    reply.header('retry-after', counted.ttlInSeconds);
    throw tooManyRequests(authMessages.tooManyRequests);
  };
}
