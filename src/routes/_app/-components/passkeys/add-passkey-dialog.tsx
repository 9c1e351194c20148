import { useMutation } from '@tanstack/react-query';
import { notify } from '../../../../components/notify';
import { passkeyMutations } from '../../../../queries/passkeys';
import { passkeyErrorLeads } from './passkey-labels';
import { PasskeyNameDialog } from './passkey-name-dialog';

/**
 * Names a new passkey, then lets the browser ask the device for it (a fingerprint, a PIN, a touch
 * of the key). `onAdded` runs once the server has kept it.
 */
export function AddPasskeyDialog({
  opened,
  onClose,
  onAdded,
}: {
  opened: boolean;
  onClose: () => void;
  onAdded?: () => void;
}) {
  const create = useMutation(passkeyMutations.create());
  return (
    <PasskeyNameDialog
      opened={opened}
      title="Add a passkey or security key"
      initialName=""
      submitLabel="Continue"
      errorLead={passkeyErrorLeads.add}
      onSubmit={async (name) => {
        const { message } = await create.mutateAsync(name);
        notify(message);
        onAdded?.();
      }}
      onClose={onClose}
    >
      Name it, then follow your browser: it asks this device, or a security key you plug in or hold
      near, to make one for this account.
    </PasskeyNameDialog>
  );
}
