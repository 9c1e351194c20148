import { act } from '@testing-library/react';
import { vi } from 'vitest';
import {
  RECONNECT_EVENT,
  RELOAD_EVENT,
  type ActivityEvent,
} from '../../../src/api/contract/activity';

/**
 * The browser's EventSource, driven by the test: open it, send it events, drop
 * it. (The only stand-in is the browser's own API: what the console does with it is real.)
 */
export class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static instances: FakeEventSource[] = [];

  readyState = FakeEventSource.CONNECTING;
  onopen: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  private listeners = new Map<string, ((event: MessageEvent) => void)[]>();

  readonly url: string;

  constructor(
    url: string | URL,
    readonly init?: EventSourceInit,
  ) {
    this.url = String(url);
    FakeEventSource.instances.push(this);
  }

  addEventListener(type: string, listener: (event: MessageEvent) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  close() {
    this.readyState = FakeEventSource.CLOSED;
  }

  /** The server answered 200: the stream is live. */
  open() {
    act(() => {
      this.readyState = FakeEventSource.OPEN;
      this.onopen?.(new Event('open'));
    });
  }

  send(event: ActivityEvent) {
    act(() => {
      const message = new MessageEvent('activity', {
        data: JSON.stringify(event),
        lastEventId: String(event.id),
      });
      for (const listener of this.listeners.get('activity') ?? []) listener(message);
    });
  }

  /** The server's word that the client missed too much to be replayed; `id` is the newest. */
  reload(id: number) {
    act(() => {
      const message = new MessageEvent(RELOAD_EVENT, { data: '{}', lastEventId: String(id) });
      for (const listener of this.listeners.get(RELOAD_EVENT) ?? []) listener(message);
    });
  }

  /** The server's word that it is shutting down: come back after `id` (the last it handled). */
  reconnect(id: number) {
    act(() => {
      const message = new MessageEvent(RECONNECT_EVENT, { data: '{}', lastEventId: String(id) });
      for (const listener of this.listeners.get(RECONNECT_EVENT) ?? []) listener(message);
    });
  }

  /** The connection dropped; the browser retries by itself unless `closed`. */
  drop(closed = false) {
    act(() => {
      this.readyState = closed ? FakeEventSource.CLOSED : FakeEventSource.CONNECTING;
      this.onerror?.(new Event('error'));
    });
  }

  /** The console's current stream. */
  static latest(): FakeEventSource {
    const latest = FakeEventSource.instances.at(-1);
    if (!latest) throw new Error('the console opened no event stream');
    return latest;
  }
}

export function installEventSource() {
  FakeEventSource.instances = [];
  vi.stubGlobal('EventSource', FakeEventSource);
}
