import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { networkMessages } from '../../../../api/contract/networks';
import { networkErrorLeads } from '../../../../components/error-text';
import { notify } from '../../../../components/notify';
import { TypedNameConfirmDialog } from '../../../../components/typed-name-confirm-dialog';
import { networkKeys, networkMutations } from '../../../../queries/networks';

/** Spec section 9: deleting a network waits this long before the call. */
export const NETWORK_DELETE_DELAY_MS = 1_000;

interface DeleteNetworkDialogProps {
  id: number;
  name: string;
  opened: boolean;
  onClose: () => void;
}

/**
 * Asks for the network's name first; then says the network is being deleted, waits 1 s (spec section 4), deletes and goes
 * to the list. A refusal stays in the dialog with the server's reason.
 */
export function DeleteNetworkDialog({ id, name, opened, onClose }: DeleteNetworkDialogProps) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const remove = useMutation(networkMutations.delete());

  const run = async () => {
    notify(networkMessages.deleting, { type: 'info' });
    await new Promise((resolve) => window.setTimeout(resolve, NETWORK_DELETE_DELAY_MS));
    await remove.mutateAsync(id);
    await navigate({ to: '/networks' });
    // Gone: its details would only answer 404 now.
    queryClient.removeQueries({ queryKey: networkKeys.detail(id) });
  };

  return (
    <TypedNameConfirmDialog
      opened={opened}
      name={name}
      title={`Delete ${name}?`}
      errorLead={networkErrorLeads.deleteNetwork}
      onConfirm={run}
      onClose={onClose}
    >
      The network will be deleted completely. This action cannot be reversed.
    </TypedNameConfirmDialog>
  );
}
