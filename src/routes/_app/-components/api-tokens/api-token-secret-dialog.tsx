import { Text } from '@mantine/core';
import { formatDateTime } from '../../../../components/date-format';
import { SecretOnceDialog } from '../../../../components/secret-once-dialog';
import { accessLabels, teamsLabel } from './api-token-labels';
import type { CreatedApiToken } from './create-api-token-form';

interface ApiTokenSecretDialogProps {
  /** The token just made, with its secret; null when there is none to show. */
  created: CreatedApiToken | null;
  onClose: () => void;
}

/** A new token's secret, shown this once: the server keeps only its hash. */
export function ApiTokenSecretDialog({ created, onClose }: ApiTokenSecretDialogProps) {
  const token = created?.token;
  return (
    <SecretOnceDialog
      secret={created?.secret ?? null}
      title="Copy your new API token"
      secretLabel="Token"
      copyLabel="Copy token"
      copiedMessage="API token copied to clipboard"
      advice={
        <>
          Copy it now and keep it somewhere safe, such as a password manager or your CI’s secrets.
          Only a fingerprint of it is kept: if it is lost, revoke it and create another.
        </>
      }
      summary={
        token && (
          <>
            <Text span fw={600}>
              {token.name}
            </Text>{' '}
            · {accessLabels[token.access]} · {teamsLabel(token.teams)} · expires{' '}
            {formatDateTime(token.expiresAt)}
          </>
        )
      }
      onClose={onClose}
    />
  );
}
