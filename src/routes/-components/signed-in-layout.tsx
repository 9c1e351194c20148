import type { ReactNode } from 'react';
import type { User } from '../../api/contract/auth';
import { DrawnLater } from '../../boot/drawn-later';
import { AppLayout } from '../../components/app-shell';
import { useLiveEvents } from '../../live/use-live-events';

/**
 * The signed-in layout around a screen, with the live events: the `_app` routes' layout, and the
 * page-not-found screen of a signed-in user, which no route of `_app` matches.
 */
export function SignedInLayout({ user, children }: { user: User; children: ReactNode }) {
  useLiveEvents(user.id);
  // Drawn in two deferred renders, the layout and then the screen, which React draws in slices
  // between the browser's other work: drawn at once they were one long task that blocked a phone
  // for a third of a second after sign-in or a reload.
  return (
    <DrawnLater>
      <AppLayout user={user}>
        <DrawnLater>{children}</DrawnLater>
      </AppLayout>
    </DrawnLater>
  );
}
