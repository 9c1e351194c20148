import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { ApiError } from '../../../../api/client';
import {
  secondFactorMessages,
  type SecondFactorStatus,
} from '../../../../api/contract/second-factor';
import { secondFactorKeys } from '../../../../queries/second-factor';

const EnrolmentScreen = lazy(() =>
  import('./enrolment-screen').then((module) => ({ default: module.EnrolmentScreen })),
);
const EnrolWithPasskey = lazy(() =>
  import('../passkeys/enrol-with-passkey').then((module) => ({
    default: module.EnrolWithPasskey,
  })),
);

const isHeld = (error: unknown) =>
  error instanceof ApiError &&
  error.status === 403 &&
  error.message === secondFactorMessages.enrolmentRequired;

/**
 * A user whose company requires an authenticator app or a passkey they do not have is held here:
 * the server refuses everything else (403), so instead of each screen's error the console shows
 * the set-up. It knows from the one-time-code page's read of the user's second factors, or from
 * the first request the server refused, without asking the server on every page.
 */
export function EnrolmentGate({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [held, setHeld] = useState(() => {
    const status = queryClient.getQueryData<SecondFactorStatus>(secondFactorKeys.status());
    return (
      status?.enrolmentRequired === true ||
      queryClient
        .getQueryCache()
        .getAll()
        .some((query) => isHeld(query.state.error))
    );
  });

  useEffect(() => {
    const queries = queryClient.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && isHeld(event.query.state.error)) setHeld(true);
    });
    const mutations = queryClient.getMutationCache().subscribe((event) => {
      if (event.type === 'updated' && isHeld(event.mutation?.state.error)) setHeld(true);
    });
    return () => {
      queries();
      mutations();
    };
  }, [queryClient]);

  if (!held) return children;
  const enrolled = () => {
    setHeld(false);
    // Every screen's data was refused meanwhile: read it all again.
    void queryClient.resetQueries();
  };
  return (
    <Suspense fallback={null}>
      <EnrolmentScreen onEnrolled={enrolled} passkey={<EnrolWithPasskey onAdded={enrolled} />} />
    </Suspense>
  );
}
