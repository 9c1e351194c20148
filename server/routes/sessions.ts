import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  deleteAllSessionsResponse,
  deleteOtherSessionsResponse,
  deleteSessionResponse,
  listSessionsResponse,
  sessionIdParam,
  sessionMessages,
  sessionsUserIdParam,
} from '../../src/api/contract/sessions';
import {
  endOtherSessions,
  endOwnSession,
  endUserSessions,
  listOwnSessions,
} from '../domain/identity/session-list';
import { caller, sessionCaller } from '../plugins/authenticate';
import type { RouteOptions } from './deps';

/**
 * The caller's own signed-in sessions (a signed-in session's business: an API token has none), and
 * an Admin ending all of a user's. Ending a session closes its streams and consoles at once.
 */
export const sessionRoutes: FastifyPluginAsyncZod<RouteOptions> = async (app, { deps }) => {
  const { db, clock } = deps;

  app.get(
    '/list',
    { config: { sessionOnly: true }, schema: { response: { 200: listSessionsResponse } } },
    async (request) => ({
      data: await listOwnSessions(db, sessionCaller(request), clock.now()),
      message: 'OK',
    }),
  );

  app.delete(
    '/delete/:id',
    {
      config: { sessionOnly: true },
      schema: { params: sessionIdParam, response: { 200: deleteSessionResponse } },
    },
    async (request) => {
      await endOwnSession(db, sessionCaller(request), request.params.id, clock.now());
      request.log.info({ endedSessionId: request.params.id }, 'session ended by its user');
      return { data: null, message: sessionMessages.deleted };
    },
  );

  app.post(
    '/deleteOthers',
    { config: { sessionOnly: true }, schema: { response: { 200: deleteOtherSessionsResponse } } },
    async (request) => {
      const ended = await endOtherSessions(db, sessionCaller(request), clock.now());
      request.log.info({ ended }, 'other sessions ended');
      return { data: { ended }, message: sessionMessages.othersDeleted };
    },
  );

  app.post(
    '/deleteAll/:userId',
    {
      schema: { params: sessionsUserIdParam, response: { 200: deleteAllSessionsResponse } },
    },
    async (request) => {
      const { userId } = request.params;
      const ended = await endUserSessions(db, caller(request), userId, clock.now());
      request.log.info({ userId, ended }, "an Admin ended a user's sessions");
      return { data: { ended }, message: sessionMessages.allDeleted };
    },
  );
};
