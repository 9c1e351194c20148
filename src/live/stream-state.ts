import { useSyncExternalStore } from 'react';
import type { StreamState } from '../api/events';

/**
 * Whether the live event stream is up, for whoever must know: the indicator, and the queries that
 * poll only while it is not.
 */
let state: StreamState = 'off';
const listeners = new Set<() => void>();

export const streamState = {
  get: () => state,
  set(next: StreamState) {
    if (next === state) return;
    state = next;
    for (const listener of listeners) listener();
  },
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

/** True while events arrive as they happen: nothing needs polling. */
export const isLive = () => state === 'live';

export const useStreamState = () =>
  useSyncExternalStore(streamState.subscribe, streamState.get, streamState.get);
