import http from 'node:http';
import {
  RECONNECT_EVENT,
  RELOAD_EVENT,
  type ActivityEvent,
} from '../../../src/api/contract/activity';
import { SESSION_COOKIE } from '../../../server/plugins/session-cookie';

export interface StreamedEvent {
  id: number;
  event: ActivityEvent;
}

export interface EventStreamClient {
  status: number;
  /** The answer's JSON body when the stream was refused. */
  refusal?: unknown;
  /** Every activity event received so far, in order. */
  received: StreamedEvent[];
  /** Heartbeat comments received so far. */
  heartbeats: number;
  /** The ids of the reload signals received so far (the client missed too much to be replayed). */
  reloads: number[];
  /**
   * The server's words that it is going (reconnect elsewhere): the id to resume after, if any,
   * and the pause it asks for before reconnecting.
   */
  reconnects: { id: number | undefined; retryMs: number | undefined }[];
  /** Waits until `count` events have come in all (bounded). */
  waitFor(count: number, timeoutMs?: number): Promise<StreamedEvent[]>;
  /** Waits until the condition holds (bounded). */
  waitUntil(done: () => boolean, timeoutMs?: number): Promise<void>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/**
 * Reads `GET /api/v1/events` as a browser's EventSource would: the session cookie, an optional
 * Last-Event-ID, and the text/event-stream format parsed field by field.
 */
export async function openEventStream(
  baseUrl: string,
  token: string,
  options: { lastEventId?: number; query?: string } = {},
): Promise<EventStreamClient> {
  const request = http.get(`${baseUrl}/api/v1/events${options.query ?? ''}`, {
    // A connection of its own, closed with the stream: nothing left in a pool.
    agent: false,
    headers: {
      cookie: `${SESSION_COOKIE}=${token}`,
      accept: 'text/event-stream',
      ...(options.lastEventId === undefined
        ? {}
        : { 'last-event-id': String(options.lastEventId) }),
    },
  });
  const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
    request.on('response', resolve);
    request.on('error', reject);
  });
  const client: EventStreamClient = {
    status: res.statusCode ?? 0,
    received: [],
    heartbeats: 0,
    reloads: [],
    reconnects: [],
    waitFor: async () => [],
    waitUntil: async () => {},
    ended: Promise.resolve(),
    close: () => request.destroy(),
  };
  if (res.statusCode !== 200) {
    let body = '';
    for await (const chunk of res) body += String(chunk);
    client.refusal = body ? (JSON.parse(body) as unknown) : undefined;
    return client;
  }
  let wake: (() => void) | undefined;
  res.setEncoding('utf8');
  client.ended = (async () => {
    let buffer = '';
    try {
      for await (const value of res as AsyncIterable<string>) {
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const fields = new Map<string, string>();
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) client.heartbeats += 1;
            const colon = line.indexOf(':');
            if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 1).trimStart());
          }
          if (fields.get('event') === 'activity') {
            client.received.push({
              id: Number(fields.get('id')),
              event: JSON.parse(fields.get('data')!) as ActivityEvent,
            });
            wake?.();
          }
          if (fields.get('event') === RECONNECT_EVENT) {
            const id = fields.get('id');
            const retry = fields.get('retry');
            client.reconnects.push({
              id: id === undefined ? undefined : Number(id),
              retryMs: retry === undefined ? undefined : Number(retry),
            });
            wake?.();
          }
          if (fields.get('event') === RELOAD_EVENT) {
            client.reloads.push(Number(fields.get('id')));
            wake?.();
          }
        }
      }
    } catch {
      // Closed by this side.
    } finally {
      wake?.();
    }
  })();
  let ended = false;
  void client.ended.then(() => (ended = true));
  client.waitUntil = async (done, timeoutMs = 5_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!done() && !ended && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 50);
      });
    }
  };
  client.waitFor = async (count, timeoutMs) => {
    await client.waitUntil(() => client.received.length >= count, timeoutMs);
    return client.received;
  };
  return client;
}
