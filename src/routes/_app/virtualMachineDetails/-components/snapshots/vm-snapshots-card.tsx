import { Button, Group, Text } from '@mantine/core';
import { IconCamera } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { roleAllows } from '../../../../../api/contract/permissions';
import { snapshotMessages, type VmSnapshot } from '../../../../../api/contract/vm-snapshots';
import { vmRules, type VmDetails } from '../../../../../api/contract/vms';
import { ConfirmDialog } from '../../../../../components/confirm-dialog';
import { DataTable } from '../../../../../components/data-table/data-table';
import { notify } from '../../../../../components/notify';
import { snapshotMutations, snapshotQueries } from '../../../../../queries/vm-snapshots';
import { snapshotColumns } from './snapshot-columns';
import { TakeSnapshotDialog } from './take-snapshot-dialog';

type Confirming = { action: 'restore' | 'delete'; snapshot: VmSnapshot; opened: boolean };

/** Why nothing may be started on the VM's snapshots now, or null. */
function vmRefusal(details: VmDetails, snapshots: readonly VmSnapshot[]): string | null {
  if (
    snapshots.some(
      (s) => s.status === 'creating' || s.status === 'restoring' || s.status === 'deleting',
    )
  ) {
    return 'Another snapshot operation is under way';
  }
  if (vmRules.isTransitional(details.status)) return `The VM is ${details.status.toLowerCase()}`;
  return null;
}

/**
 * The VM details page's snapshots: each with its size, time and status, and for those who operate
 * the VM, "Take snapshot" (a name), Restore and Delete (each confirmed). What cannot be done now
 * says why. Events of the VM keep the list current.
 */
export function VmSnapshotsCard({ vmId, details }: { vmId: number; details: VmDetails }) {
  const list = useQuery(snapshotQueries.of(vmId));
  const restore = useMutation(snapshotMutations.restore(vmId));
  const remove = useMutation(snapshotMutations.delete(vmId));
  const [taking, setTaking] = useState(false);
  const [confirming, setConfirming] = useState<Confirming | null>(null);

  const canOperate = roleAllows(details.yourRoleId, 'vm.operate');
  const snapshots = useMemo(() => list.data?.snapshots ?? [], [list.data]);
  const max = list.data?.maxPerVm ?? 5;
  const refusal = vmRefusal(details, snapshots);
  const takeWhy =
    refusal ??
    (snapshots.length >= max
      ? `This VM keeps at most ${max} snapshots: delete one to take another`
      : vmRules.canSnapshot(details.status)
        ? null
        : snapshotMessages.vmNotAtRest);

  const columns = useMemo(
    () =>
      snapshotColumns(
        canOperate
          ? {
              why: (snapshot, action) => {
                if (refusal) return refusal;
                if (action === 'delete') {
                  return snapshot.status === 'available' || snapshot.status === 'error'
                    ? null
                    : snapshotMessages.notAvailable;
                }
                if (snapshot.status !== 'available') return snapshotMessages.notAvailable;
                return vmRules.canSnapshot(details.status) ? null : snapshotMessages.vmNotAtRest;
              },
              onRestore: (snapshot) => setConfirming({ action: 'restore', snapshot, opened: true }),
              onDelete: (snapshot) => setConfirming({ action: 'delete', snapshot, opened: true }),
            }
          : null,
      ),
    [canOperate, refusal, details.status],
  );

  const restoring = confirming?.action === 'restore';
  const name = confirming?.snapshot.name ?? '';
  const run = async () => {
    if (!confirming) return;
    if (restoring) {
      await restore.mutateAsync(confirming.snapshot.id);
      notify(snapshotMessages.restoring);
    } else {
      await remove.mutateAsync(confirming.snapshot.id);
      notify(snapshotMessages.deleting);
    }
  };

  return (
    <>
      <DataTable
        title="Snapshots"
        description={`Saved states of the VM's disk, at most ${max}.`}
        columns={columns}
        data={list.data?.snapshots}
        getRowId={(row) => String(row.id)}
        emptyMessage="No snapshots yet"
        isPending={list.isPending}
        isFetching={list.isFetching}
        error={list.data ? null : list.error}
        errorTitle="Error loading snapshots"
        toolbar={
          canOperate && (
            <Group gap="sm" wrap="wrap" justify="flex-end">
              {takeWhy && list.data && (
                <Text size="sm" c="dimmed" id={`snapshot-why-${vmId}`}>
                  {takeWhy}
                </Text>
              )}
              <Button
                leftSection={<IconCamera size={16} aria-hidden />}
                disabled={!list.data || takeWhy !== null}
                aria-describedby={takeWhy ? `snapshot-why-${vmId}` : undefined}
                onClick={() => setTaking(true)}
              >
                Take snapshot
              </Button>
            </Group>
          )
        }
      />
      <TakeSnapshotDialog vmId={vmId} opened={taking} onClose={() => setTaking(false)} />
      <ConfirmDialog
        opened={confirming?.opened ?? false}
        title={restoring ? `Restore ${name}?` : `Delete ${name}?`}
        confirmLabel={restoring ? 'Restore' : 'Delete'}
        busyLabel={restoring ? 'Restoring...' : 'Deleting...'}
        errorLead={restoring ? 'Error restoring snapshot' : 'Error deleting snapshot'}
        onConfirm={run}
        onClose={() => setConfirming((c) => c && { ...c, opened: false })}
      >
        {restoring
          ? `The VM's disk goes back to how it was in ${name}: everything written since is lost. A running VM restarts.`
          : `The snapshot ${name} is deleted for good; the VM itself is not changed.`}
      </ConfirmDialog>
    </>
  );
}
