import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from '../../src/api/contract/zod';
import { listActivityQuery, listActivityResponse } from '../../src/api/contract/activity';
import { listActivity } from '../domain/events/activity-list';
import { badRequest } from '../http-error';
import { caller } from '../plugins/authenticate';
import type { RouteOptions } from './deps';

/** An event id as `Last-Event-ID` or `?lastEventId=` carries it. */
const eventId = z.coerce.number().check(z.int(), z.gte(0), z.lte(Number.MAX_SAFE_INTEGER));

/** The event log: its history, paged, and the live stream (Server-Sent Events). */
export const activityRoutes: FastifyPluginAsyncZod<RouteOptions> = async (app, { deps }) => {
  app.get(
    '/activity/list',
    { schema: { querystring: listActivityQuery, response: { 200: listActivityResponse } } },
    async (request) => ({
      data: await listActivity(deps.db, caller(request), request.query),
      message: 'OK',
    }),
  );

  app.get(
    '/events',
    {
      schema: {
        description:
          'Server-Sent Events (text/event-stream): `id: <event id>`, `event: activity`, `data: <the ' +
          'event as GET /activity/list answers it>`, a `: heartbeat` comment every 15 s. Resumes ' +
          'after `Last-Event-ID` (or `lastEventId`); at most 8 streams a user.',
        querystring: z.object({ lastEventId: z.optional(eventId) }),
      },
    },
    async (request, reply) => {
      // EventSource sends the header when it reconnects; a first connection may name one itself.
      const header = request.headers['last-event-id'];
      let lastEventId = request.query.lastEventId;
      if (typeof header === 'string' && header !== '') {
        const parsed = eventId.safeParse(header);
        if (!parsed.success) {
          throw badRequest('Must be the id of an event', 'Last-Event-ID');
        }
        lastEventId = parsed.data;
      }
      reply.hijack();
      await deps.streams.open(caller(request), reply.raw, lastEventId);
    },
  );
};
