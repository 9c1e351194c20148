import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { roleAllows } from '../../../../api/contract/permissions';
import { vmMessages, vmRules, type VmDetails } from '../../../../api/contract/vms';
import { DangerZone } from '../../../../components/danger-zone';
import { notify } from '../../../../components/notify';
import { TypedNameConfirmDialog } from '../../../../components/typed-name-confirm-dialog';
import { vmKeys, vmMutations } from '../../../../queries/vms';

/**
 * Deleting the VM, apart from its everyday actions and confirmed by typing its name. Then the
 * spec's toast, and the VM list (spec section 4).
 */
export function VmDangerZone({ id, details }: { id: number; details: VmDetails }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const remove = useMutation(vmMutations.delete());
  const [opened, setOpened] = useState(false);
  if (!roleAllows(details.yourRoleId, 'vm.delete')) return null;
  const { name } = details.virtualMachine;
  const deletable = vmRules.canDelete(details.status);

  const run = async () => {
    await remove.mutateAsync(id);
    notify(vmMessages.deleting);
    await navigate({ to: '/virtualMachines' });
    // Gone: its details would only answer 404 now.
    queryClient.removeQueries({ queryKey: vmKeys.detail(id), exact: true });
  };

  return (
    <>
      <DangerZone
        heading="Delete this virtual machine"
        description={
          deletable
            ? 'The virtual machine, its disk and its public IP addresses are deleted for good.'
            : 'A virtual machine can be deleted once its current operation has ended.'
        }
        actionLabel="Delete"
        disabled={!deletable}
        onAction={() => setOpened(true)}
      />
      <TypedNameConfirmDialog
        opened={opened}
        name={name}
        title={`Delete ${name}?`}
        errorLead="Error deleting virtual machine"
        onConfirm={run}
        onClose={() => setOpened(false)}
      >
        The virtual machine and its disk will be deleted completely. This action cannot be reversed.
      </TypedNameConfirmDialog>
    </>
  );
}
