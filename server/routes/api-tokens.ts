import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  apiTokenIdParam,
  apiTokenMessages,
  createApiTokenBody,
  createApiTokenResponse,
  deleteApiTokenResponse,
  listApiTokensQuery,
  listApiTokensResponse,
  revokeAllApiTokensBody,
  revokeAllApiTokensResponse,
} from '../../src/api/contract/api-tokens';
import {
  createApiToken,
  deleteApiToken,
  listApiTokens,
  revokeAllApiTokens,
} from '../domain/identity/api-tokens';
import { caller, sessionCaller } from '../plugins/authenticate';
import type { RouteOptions } from './deps';

/**
 * Personal API tokens: made only from a signed-in session (a token never makes another), listed
 * and revoked by their user, and by a company Admin.
 */
export const apiTokenRoutes: FastifyPluginAsyncZod<RouteOptions> = async (app, { deps }) => {
  const { db, clock } = deps;

  app.post(
    '/create',
    {
      config: { sessionOnly: true },
      schema: { body: createApiTokenBody, response: { 200: createApiTokenResponse } },
    },
    async (request) => {
      const data = await createApiToken(db, sessionCaller(request), request.body, clock.now());
      request.log.info({ apiTokenId: data.token.id }, 'API token created');
      return { data, message: apiTokenMessages.created };
    },
  );

  app.get(
    '/list',
    { schema: { querystring: listApiTokensQuery, response: { 200: listApiTokensResponse } } },
    async (request) => ({
      data: await listApiTokens(db, caller(request), request.query),
      message: 'OK',
    }),
  );

  app.delete(
    '/delete/:id',
    { schema: { params: apiTokenIdParam, response: { 200: deleteApiTokenResponse } } },
    async (request) => {
      await deleteApiToken(db, caller(request), request.params.id, clock.now());
      return { data: null, message: apiTokenMessages.deleted };
    },
  );

  app.post(
    '/revokeAll',
    { schema: { body: revokeAllApiTokensBody, response: { 200: revokeAllApiTokensResponse } } },
    async (request) => {
      const revoked = await revokeAllApiTokens(db, caller(request), request.body, clock.now());
      return { data: { revoked }, message: apiTokenMessages.allDeleted };
    },
  );
};
