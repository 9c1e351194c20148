import type { MantineColor } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { vmMessages } from '../../../../api/contract/vms';
import { ConfirmDialog } from '../../../../components/confirm-dialog';
import { notify } from '../../../../components/notify';
import { vmKeys, vmMutations } from '../../../../queries/vms';

export type VmAction = 'start' | 'stop' | 'reset' | 'delete';

interface Confirmation {
  verb: string;
  busy: string;
  color: MantineColor;
  errorLead: string;
  toast: string;
  text: string;
}

const confirmations: Record<VmAction, Confirmation> = {
  start: {
    verb: 'Start',
    busy: 'Starting...',
    color: 'green',
    errorLead: 'Error starting virtual machine',
    toast: vmMessages.starting,
    text: 'The virtual machine will boot.',
  },
  stop: {
    verb: 'Stop',
    busy: 'Stopping...',
    color: 'red',
    errorLead: 'Error stopping virtual machine',
    toast: vmMessages.stopping,
    text: 'The virtual machine will shut down; whatever runs on it stops.',
  },
  reset: {
    verb: 'Reset',
    busy: 'Resetting...',
    color: 'red',
    errorLead: 'Error resetting virtual machine',
    toast: vmMessages.resetting,
    text: 'The virtual machine will restart at once, like pressing its reset button. Work not saved on it is lost.',
  },
  delete: {
    verb: 'Delete',
    busy: 'Deleting...',
    color: 'red',
    errorLead: 'Error deleting virtual machine',
    toast: vmMessages.deleting,
    text: 'The virtual machine and its disk will be deleted completely. This action cannot be reversed.',
  },
};

interface VmConfirmationsProps {
  id: number;
  name: string;
  /** The action asked for; it outlives `opened` so the dialog keeps its words while it fades out. */
  confirming: { action: VmAction; opened: boolean } | null;
  onClose: () => void;
}

/**
 * Start, stop, reset and delete each ask first (spec section 4). Then a toast says what is under
 * way; the details and lists reload through the mutation's invalidation, and a delete goes to the
 * VM list.
 */
export function VmConfirmations({ id, name, confirming, onClose }: VmConfirmationsProps) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const start = useMutation(vmMutations.start());
  const stop = useMutation(vmMutations.stop());
  const reset = useMutation(vmMutations.reset());
  const remove = useMutation(vmMutations.delete());
  const mutations = { start, stop, reset, delete: remove };

  const action = confirming?.action ?? 'start';
  const { verb, busy, color, errorLead, toast, text } = confirmations[action];

  const run = async () => {
    await mutations[action].mutateAsync(id);
    notify(toast);
    if (action === 'delete') {
      await navigate({ to: '/virtualMachines' });
      // Gone: its details would only answer 404 now.
      queryClient.removeQueries({ queryKey: vmKeys.detail(id), exact: true });
    }
  };

  return (
    <ConfirmDialog
      opened={confirming?.opened ?? false}
      title={`${verb} ${name}?`}
      confirmLabel={verb}
      confirmColor={color}
      busyLabel={busy}
      errorLead={errorLead}
      onConfirm={run}
      onClose={onClose}
    >
      {text}
    </ConfirmDialog>
  );
}
