import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from '../../src/api/contract/zod';
import {
  EVENT_REPLAY_LIMIT,
  EVENT_STREAM_OPENS_PER_MINUTE,
  EVENT_STREAMS_PER_COMPANY,
  EVENT_STREAMS_PER_USER,
  listActivityQuery,
  listActivityResponse,
  RECONNECT_EVENT,
  RELOAD_EVENT,
} from '../../src/api/contract/activity';
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
      config: {
        rateLimit: {
          max: EVENT_STREAM_OPENS_PER_MINUTE,
          timeWindow: 60_000,
          // Once the caller is known: each user has their own allowance, even behind one address.
          hook: 'preValidation',
          keyGenerator: (request) =>
            request.auth ? `user:${request.auth.userId}` : `address:${request.ip}`,
        },
      },
      schema: {
        description:
          'Server-Sent Events (text/event-stream): `id: <event id>`, `event: activity`, `data: <the ' +
          'event as GET /activity/list answers it>`, a `: heartbeat` comment every 15 s. Resumes ' +
          `after \`Last-Event-ID\` (or \`lastEventId\`), replaying at most ${EVENT_REPLAY_LIMIT} ` +
          `events; a client further behind gets \`event: ${RELOAD_EVENT}\` with the newest id ` +
          `instead, reads afresh what it shows and resumes from there. A server that shuts down ` +
          `sends \`event: ${RECONNECT_EVENT}\` (with the id to resume after and a short ` +
          '`retry:`) and ends the stream: open it again at once, to another process. At most ' +
          `${EVENT_STREAMS_PER_USER} streams a user (a new one closes the oldest) and ` +
          `${EVENT_STREAMS_PER_COMPANY} a company (then 429), ${EVENT_STREAM_OPENS_PER_MINUTE} ` +
          'opened a minute per user (then 429); 503 when the server holds as many as it may.',
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
      const who = caller(request);
      // Refused with an answer of its own while the reply is still Fastify's.
      deps.streams.admit(who);
      reply.hijack();
      await deps.streams.open(who, reply.raw, lastEventId);
    },
  );
};
