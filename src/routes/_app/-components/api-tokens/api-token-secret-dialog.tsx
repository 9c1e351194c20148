import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';
import { useId } from 'react';
import { formatDateTime } from '../../../../components/date-format';
import { notify } from '../../../../components/notify';
import { accessLabels, teamsLabel } from './api-token-labels';
import type { CreatedApiToken } from './create-api-token-form';

/** Spec section 8: a copied value stays highlighted this long. */
const COPY_HIGHLIGHT_MS = 1_000;

interface ApiTokenSecretDialogProps {
  /** The token just made, with its secret; null when there is none to show. */
  created: CreatedApiToken | null;
  onClose: () => void;
}

/**
 * The secret of a new token, shown this once: the server keeps only its hash. A click outside
 * does not close it, so that the secret is not lost by accident; Done, the close button and
 * Escape do.
 */
export function ApiTokenSecretDialog({ created, onClose }: ApiTokenSecretDialogProps) {
  return (
    <Modal
      opened={created !== null}
      onClose={onClose}
      title="Copy your new API token"
      centered
      closeOnClickOutside={false}
      size="lg"
    >
      {created && <SecretBody created={created} onClose={onClose} />}
    </Modal>
  );
}

function SecretBody({
  created: { token, secret },
  onClose,
}: {
  created: CreatedApiToken;
  onClose: () => void;
}) {
  const labelId = useId();
  return (
    <Stack gap="md">
      <Alert
        color="yellow"
        variant="light"
        icon={<IconAlertTriangle aria-hidden />}
        title="It will not be shown again"
      >
        Copy it now and keep it somewhere safe, such as a password manager or your CI’s secrets.
        Launchpad keeps only a fingerprint of it: if it is lost, revoke it and create another.
      </Alert>
      <Text size="sm">
        <Text span fw={600}>
          {token.name}
        </Text>{' '}
        · {accessLabels[token.access]} · {teamsLabel(token.teams)} · expires{' '}
        {formatDateTime(token.expiresAt)}
      </Text>
      <Stack gap={4}>
        <Text size="sm" fw={500} id={labelId}>
          Token
        </Text>
        {/* Wrapped rather than scrolled in an input, so a phone shows all of it; one click
            selects all of it. */}
        <Code
          block
          aria-labelledby={labelId}
          fz="sm"
          style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', userSelect: 'all' }}
        >
          {secret}
        </Code>
      </Stack>
      <Group justify="flex-end">
        <CopyButton value={secret} timeout={COPY_HIGHLIGHT_MS}>
          {({ copied, copy }) => (
            <Button
              variant={copied ? 'light' : 'filled'}
              color={copied ? 'teal' : undefined}
              leftSection={
                copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />
              }
              data-copied={copied || undefined}
              onClick={() => {
                copy();
                notify('API token copied to clipboard');
              }}
              data-autofocus
            >
              {copied ? 'Copied' : 'Copy token'}
            </Button>
          )}
        </CopyButton>
        <Button variant="default" onClick={onClose}>
          Done
        </Button>
      </Group>
    </Stack>
  );
}
