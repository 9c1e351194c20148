import type { MantineColor } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { vmMessages } from '../../../../api/contract/vms';
import { ConfirmDialog } from '../../../../components/confirm-dialog';
import { notify } from '../../../../components/notify';
import { vmMutations } from '../../../../queries/vms';

export type VmAction = 'start' | 'stop' | 'reset';

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
};

interface VmConfirmationsProps {
  id: number;
  name: string;
  /** The action asked for; it outlives `opened` so the dialog keeps its words while it fades out. */
  confirming: { action: VmAction; opened: boolean } | null;
  onClose: () => void;
}

/**
 * Start, stop and reset each ask first (spec section 4). Then a toast says what is under way; the
 * details and lists reload through the mutation's invalidation. Delete lives in the Danger zone.
 */
export function VmConfirmations({ id, name, confirming, onClose }: VmConfirmationsProps) {
  const start = useMutation(vmMutations.start());
  const stop = useMutation(vmMutations.stop());
  const reset = useMutation(vmMutations.reset());
  const mutations = { start, stop, reset };

  const action = confirming?.action ?? 'start';
  const { verb, busy, color, errorLead, toast, text } = confirmations[action];

  const run = async () => {
    await mutations[action].mutateAsync(id);
    notify(toast);
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
