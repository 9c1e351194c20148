import { Button } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { UserSession } from '../../../../api/contract/sessions';
import { ConfirmDialog } from '../../../../components/confirm-dialog';
import { DataTable } from '../../../../components/data-table/data-table';
import { notify } from '../../../../components/notify';
import { sessionMutations, sessionQueries } from '../../../../queries/sessions';
import { sessionColumns } from './session-columns';
import { sessionErrorLeads, sessionLabel } from './session-labels';

/**
 * Profile → Sessions: where the user is signed in, this browser marked; signing out of one
 * session, or of every other one. An ended session's pages are signed out at once.
 */
export function SessionsSection() {
  const list = useQuery(sessionQueries.list());
  // The target outlives `opened` so the title does not go blank while the dialog fades out.
  const [target, setTarget] = useState<UserSession | null>(null);
  const [signOutOpened, setSignOutOpened] = useState(false);
  const [othersOpened, setOthersOpened] = useState(false);
  const signOut = useMutation(sessionMutations.delete());
  const signOutOthers = useMutation(sessionMutations.deleteOthers());

  const columns = useMemo(
    () =>
      sessionColumns((session) => {
        setTarget(session);
        setSignOutOpened(true);
      }),
    [],
  );
  const others = list.data?.filter((session) => !session.current).length ?? 0;

  return (
    <>
      <DataTable
        title="Sessions"
        description="Where you are signed in. Sign out of any session you do not recognise."
        columns={columns}
        data={list.data}
        getRowId={(row) => String(row.id)}
        isPending={list.isPending}
        isFetching={list.isFetching}
        // Rows already shown stay on a failed refresh (the query cache toasts it).
        error={list.data ? null : list.error}
        errorTitle={sessionErrorLeads.fetch}
        onRefresh={() => void list.refetch()}
        emptyMessage="No sessions."
        toolbar={
          others > 0 && (
            <Button variant="light" color="red" onClick={() => setOthersOpened(true)}>
              Sign out everywhere else
            </Button>
          )
        }
      />

      <ConfirmDialog
        opened={signOutOpened}
        title={`Sign out ${target ? sessionLabel(target) : ''}?`}
        confirmLabel="Sign out"
        busyLabel="Signing out..."
        errorLead={sessionErrorLeads.signOut}
        onConfirm={async () => {
          if (!target) return;
          const { message } = await signOut.mutateAsync(target.id);
          notify(message);
        }}
        onClose={() => setSignOutOpened(false)}
      >
        The session{target?.address ? ` from ${target.address}` : ''} is signed out at once: its
        pages, live updates and open consoles stop, and it must sign in again.
      </ConfirmDialog>
      <ConfirmDialog
        opened={othersOpened}
        title="Sign out everywhere else?"
        confirmLabel="Sign out everywhere else"
        busyLabel="Signing out..."
        errorLead={sessionErrorLeads.signOutOthers}
        onConfirm={async () => {
          const { message } = await signOutOthers.mutateAsync();
          notify(message);
        }}
        onClose={() => setOthersOpened(false)}
      >
        {others === 1 ? 'Your other session is' : `All ${others} of your other sessions are`} signed
        out at once. This browser stays signed in.
      </ConfirmDialog>
    </>
  );
}
