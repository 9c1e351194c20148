import { useMutation } from '@tanstack/react-query';
import type { ApiToken } from '../../../../api/contract/api-tokens';
import { ConfirmDialog } from '../../../../components/confirm-dialog';
import { notify } from '../../../../components/notify';
import { apiTokenMutations } from '../../../../queries/api-tokens';
import { apiTokenErrorLeads } from './api-token-labels';

interface RevokeApiTokenDialogProps {
  /** Outlives `opened`, so that the title does not go blank while the dialog fades out. */
  token: ApiToken | null;
  opened: boolean;
  /** Names the owner too: the company's list holds several people's tokens. */
  withOwner?: boolean;
  onClose: () => void;
}

/** Revokes one token once confirmed; its scripts are refused from then on. */
export function RevokeApiTokenDialog({
  token,
  opened,
  withOwner = false,
  onClose,
}: RevokeApiTokenDialogProps) {
  const revoke = useMutation(apiTokenMutations.delete());
  return (
    <ConfirmDialog
      opened={opened}
      title={`Revoke ${token?.name ?? ''}?`}
      confirmLabel="Revoke"
      busyLabel="Revoking..."
      errorLead={apiTokenErrorLeads.revoke}
      onConfirm={async () => {
        if (!token) return;
        // Resolves once the lists have reloaded (the invalidation is awaited).
        const { message } = await revoke.mutateAsync(token.id);
        notify(message);
      }}
      onClose={onClose}
    >
      Scripts and tools using {token?.name}
      {withOwner && token ? ` (${token.user.name}’s token)` : ''} stop working at once. This cannot
      be undone.
    </ConfirmDialog>
  );
}
