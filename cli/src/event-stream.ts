import {
  ACTIVITY_EVENT,
  activityEvent,
  RECONNECT_EVENT,
  RELOAD_EVENT,
  type ActivityEvent,
} from '../../src/api/contract/activity';
import { reviveDates } from '../../src/api/revive-dates';
import type { Api } from './http';

export interface ServerSentEvent {
  event: string;
  id: string;
  data: string;
}

/** The messages of a text/event-stream body; comments (the heartbeats) are skipped. */
export async function* serverSentEvents(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<ServerSentEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  let message: ServerSentEvent = { event: 'message', id: '', data: '' };
  let hasData = false;
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.search(/\r\n|\n|\r/)) !== -1) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + (buffer.startsWith('\r\n', end) ? 2 : 1));
      if (line === '') {
        if (hasData) yield message;
        message = { event: 'message', id: message.id, data: '' };
        hasData = false;
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') message.event = value;
      else if (field === 'id') message.id = value;
      else if (field === 'data') {
        message.data = hasData ? `${message.data}\n${value}` : value;
        hasData = true;
      }
    }
  }
}

export type StreamItem =
  | { kind: 'activity'; event: ActivityEvent }
  | { kind: 'reload'; id: string }
  | { kind: 'reconnect'; id: string };

/**
 * The live event stream (`GET /events`), opened now: resolves once the server has answered, then
 * yields each activity event the token's user may see. `reload` says the client fell more than
 * the replay limit behind; `reconnect`, the last item, that the server is shutting down and the
 * stream should be opened again at once, after `id`. With `lastEventId`, the events after it come
 * first.
 */
export async function openEventStream(api: Api, signal?: AbortSignal, lastEventId?: string) {
  const response = await api.open('events', {
    headers: { accept: 'text/event-stream' },
    query: { lastEventId },
    signal,
  });
  async function* items(): AsyncGenerator<StreamItem> {
    if (!response.body) return;
    for await (const message of serverSentEvents(response.body)) {
      if (message.event === RELOAD_EVENT) yield { kind: 'reload', id: message.id };
      if (message.event === RECONNECT_EVENT) {
        yield { kind: 'reconnect', id: message.id };
        return;
      }
      if (message.event !== ACTIVITY_EVENT) continue;
      const parsed = activityEvent.safeParse(reviveDates(JSON.parse(message.data)));
      if (parsed.success) yield { kind: 'activity', event: parsed.data };
    }
  }
  return items();
}
