import { useMutation } from '@tanstack/react-query';
import type { NetworkAdapter } from '../../../../../api/contract/networks';
import { ConfirmDialog } from '../../../../../components/confirm-dialog';
import { notify } from '../../../../../components/notify';
import { networkMutations } from '../../../../../queries/networks';
import { interfaceToasts, type Operation } from './interface-operations';

/** The confirmations of one interface: allocate or release its public IP, or remove it. */
export type InterfaceAction = 'allocate' | 'release' | 'remove';

interface Wording {
  title: (adapter: NetworkAdapter) => string;
  confirm: string;
  busy: string;
  color: string;
  text: (adapter: NetworkAdapter) => string;
}

const wordings: Record<InterfaceAction, Wording> = {
  allocate: {
    title: (a) => `Allocate a public IP to vmnic ${a.vmnic}?`,
    confirm: 'Allocate',
    busy: 'Allocating...',
    color: 'blue',
    text: (a) =>
      `A public IPv4 address will be assigned to vmnic ${a.vmnic} on ${a.networkName} and translated to its private address${a.privateIp ? ` ${a.privateIp}` : ''}. It is reachable from the internet.`,
  },
  release: {
    title: (a) => `Release the public IP of vmnic ${a.vmnic}?`,
    confirm: 'Release',
    busy: 'Releasing...',
    color: 'red',
    text: (a) =>
      `The address ${a.publicIp ?? ''} goes back to the pool and may be given to someone else. The VM keeps outbound internet access through ${a.networkName}.`,
  },
  remove: {
    title: (a) => `Remove vmnic ${a.vmnic}?`,
    confirm: 'Remove',
    busy: 'Removing...',
    color: 'red',
    text: (a) =>
      `The VM is disconnected from ${a.networkName}; its address ${a.privateIp ?? ''}${a.publicIp ? ` and its public IP ${a.publicIp}` : ''} are released.`,
  },
};

interface InterfaceConfirmationProps {
  vmId: number;
  /** The interface and action asked for; kept while the dialog fades out. */
  target: { adapter: NetworkAdapter; action: InterfaceAction } | null;
  opened: boolean;
  onAccepted: (operation: Operation) => void;
  onClose: () => void;
}

/**
 * Asks before changing an interface. A refusal stays in the dialog and is toasted; an accepted
 * request is handed to the editor, which toasts the outcome once the provider is done.
 */
export function InterfaceConfirmation({
  vmId,
  target,
  opened,
  onAccepted,
  onClose,
}: InterfaceConfirmationProps) {
  const allocate = useMutation(networkMutations.allocatePublicIp());
  const release = useMutation(networkMutations.releasePublicIp());
  const remove = useMutation(networkMutations.removeInterface());
  const action = target?.action ?? 'allocate';
  const wording = wordings[action];
  const failedToast = interfaceToasts[action].failed;

  const run = async () => {
    if (!target) return;
    const { adapter } = target;
    try {
      if (action === 'allocate') await allocate.mutateAsync(adapter.id);
      else if (action === 'release') await release.mutateAsync(adapter.id);
      else await remove.mutateAsync({ vmId, networkId: adapter.networkId });
    } catch (error) {
      notify(failedToast, { type: 'error' });
      throw error;
    }
    onAccepted({ kind: action, interfaceId: adapter.id, message: adapter.statusMessage });
  };

  return (
    <ConfirmDialog
      opened={opened}
      title={target ? wording.title(target.adapter) : ''}
      confirmLabel={wording.confirm}
      confirmColor={wording.color}
      busyLabel={wording.busy}
      errorLead={failedToast}
      onConfirm={run}
      onClose={onClose}
    >
      {target ? wording.text(target.adapter) : ''}
    </ConfirmDialog>
  );
}
