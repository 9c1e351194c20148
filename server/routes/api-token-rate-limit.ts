import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { isApiTokenSecret } from '../domain/identity/api-tokens';
import { bearerToken } from '../plugins/authenticate';

/** The API token a request carries, if any: what it is counted by. */
function apiTokenOf(request: FastifyRequest): string | undefined {
  const bearer = bearerToken(request);
  return bearer && isApiTokenSecret(bearer) ? bearer : undefined;
}

/**
 * Every route's limit for a call with an API token: `API_TOKEN_RATE_LIMIT` a minute per token,
 * counted before the token is checked (a guessed token is counted too), by its hash (no secret
 * is kept in the limiter's memory). Sessions and the sign-in routes keep their own limits.
 */
export function apiTokenRateLimit(app: FastifyInstance, config: Pick<Config, 'rateLimits'>) {
  return app.rateLimit({
    max: config.rateLimits.apiTokenPerMinute,
    timeWindow: 60_000,
    groupId: 'api-token',
    allowList: (request) => apiTokenOf(request) === undefined,
    keyGenerator: (request) =>
      createHash('sha256')
        .update(apiTokenOf(request) ?? '')
        .digest('hex'),
  });
}
