import { useQueryClient } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { useEffect } from 'react';
import { recheckSession } from '../api/auth';
import { subscribeToEvents, type StreamState } from '../api/events';
import { notify } from '../components/notify';
import { networkKeys } from '../queries/networks';
import { vmKeys } from '../queries/vms';
import { applyEvent } from './apply-event';
import { operationToast } from './operation-toast';
import { streamState } from './stream-state';

/**
 * The signed-in console's one subscription to the live events: each goes into the query cache,
 * and the user's own operations that end elsewhere are toasted. When the stream drops, what moves
 * is polled again (the queries ask `isLive`); when it is back, what is on screen is read afresh.
 */
export function useLiveEvents(userId: number) {
  const queryClient = useQueryClient();
  const router = useRouter();
  useEffect(() => {
    let previous: StreamState = streamState.get();
    const unsubscribe = subscribeToEvents({
      onEvent(event) {
        applyEvent(queryClient, event);
        const toast = operationToast(event, userId, router.state.location.pathname);
        if (toast) notify(toast.message, { type: toast.type, duration: 6000 });
      },
      // More happened while away than the stream replays: what is on screen is read afresh.
      onReload: () => void queryClient.invalidateQueries(),
      onState(state) {
        streamState.set(state);
        if (state === 'down' && previous === 'live') {
          // A stream ends with its session (signed out elsewhere, say): the check finds out, and
          // a session that is gone leads to the sign-in page.
          recheckSession().catch(() => undefined);
          // Fetched again now so that each query decides afresh whether to poll.
          void queryClient.invalidateQueries({ queryKey: vmKeys.all });
          void queryClient.invalidateQueries({ queryKey: networkKeys.adapters() });
        }
        // Back after a gap the stream may not cover (no event seen yet): read everything again.
        if (state === 'live' && previous === 'down') void queryClient.invalidateQueries();
        previous = state;
      },
    });
    return () => {
      unsubscribe();
      streamState.set('off');
    };
  }, [queryClient, router, userId]);
}
