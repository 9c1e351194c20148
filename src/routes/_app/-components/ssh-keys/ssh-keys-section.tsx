import { Button, Modal } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { SshKey } from '../../../../api/contract/ssh-keys';
import { ConfirmDialog } from '../../../../components/confirm-dialog';
import { DataTable } from '../../../../components/data-table/data-table';
import { notify } from '../../../../components/notify';
import { sshKeyMutations, sshKeyQueries } from '../../../../queries/ssh-keys';
import { AddSshKeyForm } from './add-ssh-key-form';
import { sshKeyColumns } from './ssh-key-columns';
import { sshKeyErrorLeads } from './ssh-key-labels';

/**
 * Profile → SSH keys, on the user's own page only: the public keys Create VM offers, adding one
 * and deleting one (VMs already given it keep it).
 */
export function SshKeysSection() {
  const keys = useQuery(sshKeyQueries.list());
  const [adding, setAdding] = useState(false);
  // The target outlives `opened` so the title does not go blank while the dialog fades out.
  const [target, setTarget] = useState<SshKey | null>(null);
  const [deleteOpened, setDeleteOpened] = useState(false);
  const remove = useMutation(sshKeyMutations.delete());
  const columns = useMemo(
    () =>
      sshKeyColumns((key) => {
        setTarget(key);
        setDeleteOpened(true);
      }),
    [],
  );

  return (
    <>
      <DataTable
        title="SSH keys"
        description="Public keys you can give a new virtual machine, as well as or instead of a generated key pair."
        columns={columns}
        data={keys.data}
        getRowId={(row) => String(row.id)}
        isPending={keys.isPending}
        isFetching={keys.isFetching}
        // Rows already shown stay on a failed refresh (the query cache toasts it).
        error={keys.data ? null : keys.error}
        errorTitle={sshKeyErrorLeads.fetch}
        onRefresh={() => void keys.refetch()}
        emptyMessage="No SSH keys yet. Add your public key to log in to new virtual machines with it."
        toolbar={
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setAdding(true)}>
            Add SSH key
          </Button>
        }
      />

      <Modal
        opened={adding}
        onClose={() => setAdding(false)}
        title="Add SSH key"
        centered
        size="lg"
        closeOnClickOutside={false}
      >
        <AddSshKeyForm
          onAdded={(_key, message) => {
            setAdding(false);
            notify(message);
          }}
          onCancel={() => setAdding(false)}
        />
      </Modal>

      <ConfirmDialog
        opened={deleteOpened}
        title={`Delete ${target?.name ?? ''}?`}
        confirmLabel="Delete"
        busyLabel="Deleting..."
        errorLead={sshKeyErrorLeads.delete}
        onConfirm={async () => {
          if (!target) return;
          // Resolves once the list has reloaded (the invalidation is awaited).
          const { message } = await remove.mutateAsync(target.id);
          notify(message);
        }}
        onClose={() => setDeleteOpened(false)}
      >
        New virtual machines can no longer be given {target?.name}. Virtual machines that already
        have it keep it.
      </ConfirmDialog>
    </>
  );
}
