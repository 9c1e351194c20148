import {
  activityEvent,
  ACTIVITY_EVENT,
  RECONNECT_EVENT,
  RELOAD_EVENT,
  type ActivityEvent,
} from './contract/activity';
import { apiBase } from './base-path';
import { reviveDates } from './revive-dates';

/** `off`: no stream in this environment (a browser without EventSource, tests): poll as before. */
export type StreamState = 'off' | 'connecting' | 'live' | 'down';

/** After a refused or lost connection the browser gives up on: 1 s, 2 s, 4 s ... up to 30 s. */
const retryDelay = (attempt: number) => Math.min(30_000, 1_000 * 2 ** attempt);

/**
 * After the server says it is going: a moment, spread over a second so that its clients do not all
 * land on the other processes at once.
 */
const reconnectDelay = () => 250 + Math.random() * 1_000;

/**
 * The company's live events (`GET /events`, Server-Sent Events, authenticated by the session
 * cookie). The browser reconnects by itself after a drop, resuming after the last event it got
 * (`Last-Event-ID`); after an answer it does not retry (a restart of the server, say) this opens a
 * new connection later, resuming likewise. A server that shuts down says so (`reconnect`): the
 * stream is opened again at once, behind a load balancer on another process, and resumes after the
 * event the server names, so nothing is missed and the stream never shows as down. A client too
 * far behind to be replayed is told to reload (`onReload`), and resumes from the newest event.
 * Answers the function that closes it for good.
 */
export function subscribeToEvents(handlers: {
  onEvent: (event: ActivityEvent) => void;
  onReload: () => void;
  onState: (state: StreamState) => void;
}): () => void {
  let source: EventSource | undefined;
  let lastEventId: string | undefined;
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  if (typeof EventSource === 'undefined') {
    handlers.onState('off');
    return () => {};
  }

  const open = () => {
    const url = new URL('events', apiBase);
    if (lastEventId) url.searchParams.set('lastEventId', lastEventId);
    handlers.onState('connecting');
    source = new EventSource(url, { withCredentials: true });
    source.onopen = () => {
      attempt = 0;
      handlers.onState('live');
    };
    source.addEventListener(ACTIVITY_EVENT, (message) => {
      const { data, lastEventId: id } = message as MessageEvent<string>;
      if (id) lastEventId = id;
      const parsed = activityEvent.safeParse(reviveDates(JSON.parse(data)));
      if (parsed.success) handlers.onEvent(parsed.data);
    });
    source.addEventListener(RELOAD_EVENT, (message) => {
      const { lastEventId: id } = message as MessageEvent<string>;
      if (id) lastEventId = id;
      handlers.onReload();
    });
    source.addEventListener(RECONNECT_EVENT, (message) => {
      const { lastEventId: id } = message as MessageEvent<string>;
      if (id) lastEventId = id;
      source?.close();
      // Without an event to resume after, what happened meanwhile may be missed: a drop, then.
      if (!lastEventId) handlers.onState('down');
      timer = setTimeout(open, reconnectDelay());
    });
    source.onerror = () => {
      handlers.onState('down');
      if (source?.readyState !== EventSource.CLOSED || closed) return;
      timer = setTimeout(open, retryDelay(attempt));
      attempt += 1;
    };
  };
  open();
  return () => {
    closed = true;
    clearTimeout(timer);
    source?.close();
  };
}
