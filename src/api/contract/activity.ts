import { z } from './zod';
import { activityActorTypes, activityOutcomes, activitySubjectTypes } from './search-values';
import { envelope, idSchema, pageQuery, paged } from './envelope';

/**
 * The company's event log: every change the product makes or observes, appended in the same
 * transaction as the change. `GET /events` streams it (Server-Sent Events, one `activity` event
 * each, its id the event's id); `GET /activity/list` pages through it.
 */

export const activityActions = [
  // VMs
  'vm.created',
  'vm.status',
  'vm.start',
  'vm.stop',
  'vm.reset',
  'vm.upgrade',
  'vm.reinstall',
  'vm.snapshot',
  'vm.restore',
  'vm.snapshotDelete',
  'vm.edit',
  'vm.delete',
  'interface.add',
  'interface.remove',
  'ip.allocate',
  'ip.release',
  // Networks
  'network.create',
  'network.edit',
  'network.delete',
  // People
  'user.invite',
  'user.activate',
  'user.delete',
  'user.role',
  'team.create',
  'team.rename',
  'team.delete',
  'team.member.add',
  'team.member.remove',
  'team.member.role',
  'session.new-address',
  'authenticator.enable',
  'authenticator.disable',
  'apiToken.create',
  'apiToken.revoke',
  'apiToken.new-address',
  // Webhooks (Admins only)
  'webhook.create',
  'webhook.delete',
  'webhook.disable',
  // The company (its reseller's staff)
  'company.create',
  'company.limits',
  'company.second-factor-policy',
  'company.suspend',
  'company.resume',
] as const;
export type ActivityAction = (typeof activityActions)[number];

/**
 * `requested`: an operation was asked for (its end comes as another event of the same action);
 * `succeeded` / `failed`: it ended, or a change that takes effect at once was made; `observed`:
 * the product saw a change (a status).
 */

export const activityEvent = z.object({
  id: z.int(),
  occurredAt: z.date(),
  actor: z.object({
    type: z.enum(activityActorTypes),
    /** The user's id; null for the operator and the system. */
    id: z.nullable(z.int()),
    /** The user's name as it was then, 'Operator' or 'System'. */
    name: z.string(),
  }),
  subject: z.object({
    type: z.enum(activitySubjectTypes),
    id: z.int(),
    /** The subject's name as it was then. */
    name: z.string(),
  }),
  action: z.enum(activityActions),
  outcome: z.enum(activityOutcomes),
  /** The VM's team (VM events), which decides who else sees it. */
  teamId: z.nullable(z.int()),
  /** The network an interface or a public IP event also concerns. */
  networkId: z.nullable(z.int()),
  /** The operation an event requested or ended. */
  operationId: z.nullable(z.int()),
  /**
   * What else the event says: `from` / `to` for a status or a size, `reason` (the engine's words)
   * for a failure, `address` for an IP or a sign-in, `roleId`, `userId`, `expiresAt` (a token's),
   * ... A date in it is a date-time string, which the clients' date revival makes a Date.
   */
  detail: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null(), z.date()])),
});
export type ActivityEvent = z.infer<typeof activityEvent>;

export const activitySortColumns = ['occurredAt'] as const;

const DAY_MS = 24 * 60 * 60 * 1000;
const dateError = { error: 'Must be an ISO 8601 date, or date and time' };
// The length first, so that the formats' patterns only ever see a short value.
const short = z.string().check(z.maxLength(40, { abort: true }));
const dateTime = z.pipe(
  z.pipe(short, z.iso.datetime({ offset: true })),
  z.transform((value) => new Date(value)),
);
const day = z.pipe(
  z.pipe(short, z.iso.date()),
  z.transform((value) => new Date(value)),
);
/** `from`: from that moment, or from the start of that day (UTC). */
const fromParam = z.union([dateTime, day], dateError);
/** `to`: before that moment, or through the end of that day (UTC). */
const toParam = z.union(
  [
    dateTime,
    z.pipe(
      day,
      z.transform((start) => new Date(start.getTime() + DAY_MS)),
    ),
  ],
  dateError,
);

/** `GET /activity/list`: newest first by default; `search` matches subject and actor names. */
export const listActivityQuery = z.extend(pageQuery, {
  sortColumn: z._default(z.enum(activitySortColumns), 'occurredAt'),
  sortDescending: z._default(z.stringbool(), true),
  subjectType: z.optional(z.enum(activitySubjectTypes)),
  subjectId: z.optional(idSchema),
  /** Interface and public IP events of a network's VMs count as the network's own. */
  networkId: z.optional(idSchema),
  actorType: z.optional(z.enum(activityActorTypes)),
  actorId: z.optional(idSchema),
  outcome: z.optional(z.enum(activityOutcomes)),
  from: z.optional(fromParam),
  to: z.optional(toParam),
});
export type ListActivityQuery = z.output<typeof listActivityQuery>;
export type ListActivityParams = z.input<typeof listActivityQuery>;

export const listActivityResponse = envelope(paged(activityEvent));
export type ActivityPage = z.infer<typeof listActivityResponse>['data'];

/** The stream's heartbeat comment comes this often; a client that hears nothing for 3x reconnects. */
export const EVENT_STREAM_HEARTBEAT_MS = 15_000;
/** The SSE event name of a log entry. */
export const ACTIVITY_EVENT = 'activity';
/** How many streams one user may hold open at once; the oldest is closed for a new one. */
export const EVENT_STREAMS_PER_USER = 8;
/** How many streams a company may hold open on one server process; past it a new one gets 429. */
export const EVENT_STREAMS_PER_COMPANY = 100;
/** How many streams one server process holds at most, all companies together; past it, 503. */
export const EVENT_STREAMS_PER_PROCESS = 1_000;
/** How many times a minute one user may open a stream, reconnections included; past it, 429. */
export const EVENT_STREAM_OPENS_PER_MINUTE = 60;
/** A stream resumed after `Last-Event-ID` replays at most this many events. */
export const EVENT_REPLAY_LIMIT = 1_000;
/**
 * The SSE event that tells a client it missed more than EVENT_REPLAY_LIMIT events: it reads again
 * what it shows, and resumes after the event's id (the newest it may see).
 */
export const RELOAD_EVENT = 'reload';

/**
 * The SSE event that tells a client its server is shutting down: it opens the stream again at
 * once (behind a load balancer, to another process), resuming after the event's id. The stream
 * also says `retry:` with a short pause, for a client that knows no such event.
 */
export const RECONNECT_EVENT = 'reconnect';

export const eventStreamMessages = {
  companyFull: 'Your company has too many live event streams open; close a console tab',
  serverFull: 'The server has too many live event streams open; try again later',
};
