import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { Passkey } from '../../../../api/contract/passkeys';
import { ConfirmDialog } from '../../../../components/confirm-dialog';
import { DataTable } from '../../../../components/data-table/data-table';
import { notify } from '../../../../components/notify';
import { passkeyMutations, passkeyQueries } from '../../../../queries/passkeys';
import { passkeyColumns } from './passkey-columns';
import { passkeyErrorLeads } from './passkey-labels';
import { AddPasskeyDialog } from './add-passkey-dialog';
import { PasskeyNameDialog } from './passkey-name-dialog';

/**
 * Profile → Security → Passkeys and security keys: the user's own, each named; adding one (the
 * browser asks the device), renaming and removing one.
 */
export function PasskeysCard() {
  const list = useQuery(passkeyQueries.list());
  const rename = useMutation(passkeyMutations.rename());
  const remove = useMutation(passkeyMutations.delete());
  const [adding, setAdding] = useState(false);
  // The target outlives the dialogs' `opened`, so titles do not go blank while they fade out.
  const [target, setTarget] = useState<Passkey | null>(null);
  const [renaming, setRenaming] = useState(false);
  const [removing, setRemoving] = useState(false);

  const columns = useMemo(
    () =>
      passkeyColumns({
        onRename: (passkey) => {
          setTarget(passkey);
          setRenaming(true);
        },
        onRemove: (passkey) => {
          setTarget(passkey);
          setRemoving(true);
        },
      }),
    [],
  );

  return (
    <>
      <DataTable
        title="Passkeys and security keys"
        description="Use one instead of the e-mailed code when you sign in. A passkey also signs you in without your password."
        columns={columns}
        data={list.data}
        getRowId={(row) => String(row.id)}
        isPending={list.isPending}
        isFetching={list.isFetching}
        error={list.data ? null : list.error}
        errorTitle={passkeyErrorLeads.fetch}
        onRefresh={() => void list.refetch()}
        emptyMessage="No passkeys or security keys yet."
        toolbar={
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setAdding(true)}>
            Add passkey
          </Button>
        }
      />

      <AddPasskeyDialog opened={adding} onClose={() => setAdding(false)} />
      <PasskeyNameDialog
        opened={renaming}
        title={`Rename ${target?.name ?? ''}`}
        initialName={target?.name ?? ''}
        submitLabel="Save"
        errorLead={passkeyErrorLeads.rename}
        onSubmit={async (name) => {
          if (!target) return;
          const { message } = await rename.mutateAsync({ id: target.id, name });
          notify(message);
        }}
        onClose={() => setRenaming(false)}
      />
      <ConfirmDialog
        opened={removing}
        title={`Remove ${target?.name ?? ''}?`}
        confirmLabel="Remove"
        busyLabel="Removing..."
        errorLead={passkeyErrorLeads.remove}
        onConfirm={async () => {
          if (!target) return;
          const { message } = await remove.mutateAsync(target.id);
          notify(message);
        }}
        onClose={() => setRemoving(false)}
      >
        {target?.name} can no longer be used to sign in to this account. Remove it from the device
        too if you no longer need it there.
      </ConfirmDialog>
    </>
  );
}
