import type { ServerResponse } from 'node:http';
import { and, desc, eq, gt, gte, inArray, isNull } from 'drizzle-orm';
import {
  ACTIVITY_EVENT,
  EVENT_REPLAY_LIMIT,
  EVENT_STREAM_HEARTBEAT_MS,
  EVENT_STREAMS_PER_COMPANY,
  EVENT_STREAMS_PER_PROCESS,
  EVENT_STREAMS_PER_USER,
  eventStreamMessages,
  RECONNECT_EVENT,
  RELOAD_EVENT,
} from '../../../src/api/contract/activity';
import type { Clock } from '../../clock';
import type { Database, Db } from '../../db/client';
import { events } from '../../db/event-schema';
import { apiTokens, companies, sessions, users } from '../../db/schema';
import { HttpError, tooManyRequests } from '../../http-error';
import { visibleTeamIds } from '../tenancy/access';
import type { SessionCaller } from '../identity/sessions';
import type { EventHub, EventRow } from './hub';
import { seesEvent, toActivityEvent, visibleEvents } from './visibility';

/** A client that reads slower than this much buffered output is let go (it resumes later). */
const MAX_BUFFERED_BYTES = 1024 * 1024;

/** How long a stream told to reconnect elsewhere is given to read it before its socket goes. */
const FAREWELL_MS = 1_000;

type Caller = Pick<
  SessionCaller,
  'sessionId' | 'apiTokenId' | 'teamScope' | 'userId' | 'companyId' | 'isAdmin'
>;

interface Stream {
  caller: Caller;
  out: ServerResponse;
  teams: Set<number> | 'all';
  /** The last event handled: sent, or not the caller's to see. */
  lastSeq: number;
  /** Batches that came while the backlog was read; null once the stream is live. */
  held: EventRow[][] | null;
  /** Batches are handled one after another. */
  chain: Promise<void>;
  unsubscribe?: () => void;
  closed: boolean;
}

export interface EventStreams {
  /**
   * Throws the answer (429, 503) when the caller's company or the process holds as many streams
   * as it may; called before anything is written, in the same tick as `open`.
   */
  admit(caller: Caller): void;
  /**
   * Streams the caller's events to `out` from now on, after those since `lastEventId` (or, when
   * more than EVENT_REPLAY_LIMIT came since, a RELOAD_EVENT).
   */
  open(caller: Caller, out: ServerResponse, lastEventId: number | undefined): Promise<void>;
  /** How many streams this process holds. */
  readonly size: number;
  /**
   * Ends every stream (the server is shutting down), telling each client to reconnect at once,
   * after the last event it had; a stream opened afterwards is told so as soon as it opens.
   */
  close(): Promise<void>;
}

/** How many streams a user, a company and the process may hold. */
export interface EventStreamCaps {
  perUser: number;
  perCompany: number;
  perProcess: number;
}

/**
 * The process's Server-Sent Events streams: each gets its company's events from the hub, keeps
 * those its caller may see, and ends when the session does (revoked anywhere: at once; expired:
 * at the next heartbeat), when the caller's rights change (the client comes back with new ones),
 * when its client reads too slowly, or when the user opens more than EVENT_STREAMS_PER_USER (the
 * oldest goes). A company holds at most EVENT_STREAMS_PER_COMPANY, the process
 * EVENT_STREAMS_PER_PROCESS: past those a new stream is refused, as no one may end another's.
 */
export async function createEventStreams(options: {
  db: Db;
  clock: Clock;
  hub: EventHub;
  listen: Database['listen'];
  log: { warn(obj: object, msg: string): void };
  heartbeatMs?: number;
  /** Tests lower the caps to reach them with a handful of connections. */
  caps?: Partial<EventStreamCaps>;
}): Promise<EventStreams> {
  const { db, clock, hub } = options;
  const perUser = options.caps?.perUser ?? EVENT_STREAMS_PER_USER;
  const perCompany = options.caps?.perCompany ?? EVENT_STREAMS_PER_COMPANY;
  const perProcess = options.caps?.perProcess ?? EVENT_STREAMS_PER_PROCESS;
  const all = new Set<Stream>();
  const byUser = new Map<number, Stream[]>();
  const byCompany = new Map<number, number>();

  /**
   * What a client is told when the server goes: reconnect after a short pause (spread over a
   * second, so that one process's clients do not all land on the others at once), resuming
   * after the last event this stream handled.
   */
  const farewell = (stream: Stream) =>
    `retry: ${250 + Math.floor(Math.random() * 1000)}\n` +
    (stream.lastSeq > 0 ? `id: ${stream.lastSeq}\n` : '') +
    `event: ${RECONNECT_EVENT}\ndata: {}\n\n`;
  let closing = false;

  function end(stream: Stream, last?: string) {
    if (stream.closed) return;
    stream.closed = true;
    stream.unsubscribe?.();
    all.delete(stream);
    const { userId, companyId } = stream.caller;
    const mine = byUser.get(userId)?.filter((s) => s !== stream) ?? [];
    if (mine.length > 0) byUser.set(userId, mine);
    else byUser.delete(userId);
    const left = (byCompany.get(companyId) ?? 1) - 1;
    if (left > 0) byCompany.set(companyId, left);
    else byCompany.delete(companyId);
    // Destroyed, not ended: an ended answer waits until its client has read what is buffered, so
    // a client that reads nothing would keep the socket and the buffer for ever. The client
    // resumes after the last event it got. A last message is given a moment to be read.
    if (last === undefined) {
      stream.out.destroy();
      return;
    }
    stream.out.end(last);
    setTimeout(() => stream.out.destroy(), FAREWELL_MS).unref();
  }

  function admit(caller: Caller) {
    // A user at their own cap replaces their oldest stream: no more are held for it.
    if ((byUser.get(caller.userId)?.length ?? 0) >= perUser) return;
    if ((byCompany.get(caller.companyId) ?? 0) >= perCompany) {
      throw tooManyRequests(eventStreamMessages.companyFull);
    }
    if (all.size >= perProcess) {
      throw new HttpError(503, eventStreamMessages.serverFull);
    }
  }

  function write(stream: Stream, chunk: string) {
    if (stream.closed) return;
    if (stream.out.writableLength > MAX_BUFFERED_BYTES) end(stream);
    else stream.out.write(chunk);
  }

  const send = (stream: Stream, row: EventRow) =>
    write(
      stream,
      `id: ${row.seq}\nevent: ${ACTIVITY_EVENT}\ndata: ${JSON.stringify(toActivityEvent(row))}\n\n`,
    );

  /** `live`: the batch committed while the stream was open (not a reconnection's replay). */
  async function handle(stream: Stream, batch: EventRow[], live = true) {
    for (const row of batch) {
      if (stream.closed) return;
      if (row.seq <= stream.lastSeq) continue;
      stream.lastSeq = row.seq;
      const me = stream.caller.userId;
      const aboutMe = row.subjectType === 'user' && row.subjectId === me;
      if (stream.teams !== 'all' && row.subjectType === 'team') {
        if (row.action === 'team.delete') stream.teams.delete(row.subjectId);
        else if (row.action.startsWith('team.member.') && row.detail.userId === me) {
          stream.teams = new Set((await visibleTeamIds(db, stream.caller)) as number[]);
        }
      }
      if (seesEvent(row, stream.teams)) send(stream, row);
      // New rights (or none): the client reconnects and is answered with them.
      if (aboutMe && (row.action === 'user.role' || row.action === 'user.delete')) end(stream);
      // Its sessions are revoked with it; this ends the API tokens' streams, refused from now on.
      // Not when replayed: a stream resumed after the company was resumed must not end again.
      if (live && row.action === 'company.suspend') end(stream);
    }
  }

  function receive(stream: Stream, batch: EventRow[]) {
    if (stream.held) stream.held.push(batch);
    else stream.chain = stream.chain.then(() => handle(stream, batch));
  }

  /**
   * What the caller may see since `lastSeq`, when it is at most EVENT_REPLAY_LIMIT events; else
   * a reload signal carrying the newest id, so that a reconnection costs a bounded read.
   */
  async function backlog(stream: Stream) {
    const teamIds = stream.teams === 'all' ? 'all' : [...stream.teams];
    const newest = (await db
      .select()
      .from(events)
      .where(and(visibleEvents(stream.caller, teamIds), gt(events.seq, stream.lastSeq)))
      .orderBy(desc(events.seq))
      .limit(EVENT_REPLAY_LIMIT + 1)) as EventRow[];
    if (newest.length > EVENT_REPLAY_LIMIT) {
      stream.lastSeq = newest[0]!.seq;
      write(stream, `id: ${stream.lastSeq}\nevent: ${RELOAD_EVENT}\ndata: {}\n\n`);
      return;
    }
    await handle(stream, newest.reverse(), false);
  }

  const stopSessions = await options.listen(
    'launchpad_sessions',
    (payload) => {
      const sessionId = Number(payload);
      for (const stream of all) if (stream.caller.sessionId === sessionId) end(stream);
    },
    () => void checkSessions(),
  );

  /**
   * Ends the streams whose session expired (revocations come at once, see above), and those whose
   * API token was revoked or expired, or whose company is suspended.
   */
  async function checkSessions() {
    const streams = [...all];
    const sessionIds = [...new Set(streams.flatMap((s) => s.caller.sessionId ?? []))];
    const tokenIds = [...new Set(streams.flatMap((s) => s.caller.apiTokenId ?? []))];
    if (streams.length === 0) return;
    const now = clock.now();
    const [liveSessions, liveTokens] = await Promise.all([
      sessionIds.length === 0
        ? []
        : db
            .select({ id: sessions.id })
            .from(sessions)
            .where(
              and(
                inArray(sessions.id, sessionIds),
                isNull(sessions.revokedAt),
                gte(sessions.expiresAt, now),
              ),
            ),
      tokenIds.length === 0
        ? []
        : db
            .select({ id: apiTokens.id })
            .from(apiTokens)
            .innerJoin(users, eq(users.id, apiTokens.userId))
            .innerJoin(companies, eq(companies.id, users.companyId))
            .where(
              and(
                inArray(apiTokens.id, tokenIds),
                gte(apiTokens.expiresAt, now),
                isNull(companies.suspendedAt),
              ),
            ),
    ]);
    const liveSessionIds = new Set(liveSessions.map((s) => s.id));
    const liveTokenIds = new Set(liveTokens.map((t) => t.id));
    for (const stream of streams) {
      const { sessionId, apiTokenId } = stream.caller;
      const live =
        sessionId !== null ? liveSessionIds.has(sessionId) : liveTokenIds.has(apiTokenId!);
      if (!live) end(stream);
    }
  }

  const heartbeat = setInterval(() => {
    for (const stream of all) write(stream, ': heartbeat\n\n');
    checkSessions().catch((error: unknown) =>
      options.log.warn({ error: String(error) }, 'event streams: session check failed'),
    );
  }, options.heartbeatMs ?? EVENT_STREAM_HEARTBEAT_MS);
  heartbeat.unref();

  return {
    admit,
    async open(caller, out, lastEventId) {
      admit(caller);
      const stream: Stream = {
        caller,
        out,
        teams: 'all',
        lastSeq: lastEventId ?? 0,
        held: [],
        chain: Promise.resolve(),
        closed: false,
      };
      const mine = byUser.get(caller.userId) ?? [];
      while (mine.length >= perUser) end(mine.shift()!);
      byUser.set(caller.userId, [...mine, stream]);
      byCompany.set(caller.companyId, (byCompany.get(caller.companyId) ?? 0) + 1);
      all.add(stream);
      out.on('close', () => end(stream));
      out.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
        'x-content-type-options': 'nosniff',
        // An ended stream's connection is not kept for another request: a closing server would
        // otherwise wait for it.
        connection: 'close',
      });
      out.write('retry: 2000\n\n');
      if (closing) return end(stream, farewell(stream));
      try {
        if (!caller.isAdmin) stream.teams = new Set((await visibleTeamIds(db, caller)) as number[]);
        const unsubscribe = await hub.subscribe(caller.companyId, (batch) =>
          receive(stream, batch),
        );
        if (stream.closed) return unsubscribe();
        stream.unsubscribe = unsubscribe;
        if (lastEventId === undefined) {
          // Where the stream starts, so that one told to reconnect resumes without a gap: the hub
          // hands it every event after its cursor, the first of them perhaps already held.
          const first = stream.held?.[0]?.[0];
          stream.lastSeq = first ? first.seq - 1 : (hub.cursor(caller.companyId) ?? 0);
        }
        // Without an id to resume from, the stream starts with what commits from now on.
        if (lastEventId !== undefined) await backlog(stream);
        for (const batch of stream.held ?? []) await handle(stream, batch);
        stream.held = null;
      } catch (error) {
        options.log.warn({ error: String(error) }, 'event stream could not start');
        end(stream);
      }
    },
    get size() {
      return all.size;
    },
    async close() {
      closing = true;
      clearInterval(heartbeat);
      // A stream never finishes on its own: each goes now, or the server's close would wait for
      // every open console.
      for (const stream of all) end(stream, farewell(stream));
      await stopSessions();
    },
  };
}
