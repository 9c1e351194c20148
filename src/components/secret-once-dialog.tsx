import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';
import { useId, type ReactNode } from 'react';
import { notify } from './notify';

/** Spec section 8: a copied value stays highlighted this long. */
const COPY_HIGHLIGHT_MS = 1_000;

export interface SecretOnceDialogProps {
  /** The secret just made; null when there is none to show (the dialog is closed). */
  secret: string | null;
  title: string;
  /** What the secret belongs to, in a line above it. */
  summary: ReactNode;
  /** Where to keep it and what to do when it is lost. */
  advice: ReactNode;
  /** The secret's label, e.g. 'Token'. */
  secretLabel: string;
  /** The copy button's name, e.g. 'Copy token'. */
  copyLabel: string;
  /** The toast after a copy, e.g. 'API token copied to clipboard'. */
  copiedMessage: string;
  onClose: () => void;
}

/**
 * A credential shown this once (an API token, a webhook's signing secret): the server keeps only
 * a hash or a sealed copy. A click outside does not close it, so that the secret is not lost by
 * accident; Done, the close button and Escape do.
 */
export function SecretOnceDialog({ secret, title, onClose, ...body }: SecretOnceDialogProps) {
  return (
    <Modal
      opened={secret !== null}
      onClose={onClose}
      title={title}
      centered
      closeOnClickOutside={false}
      size="lg"
    >
      {secret !== null && <SecretBody secret={secret} onClose={onClose} {...body} />}
    </Modal>
  );
}

function SecretBody({
  secret,
  summary,
  advice,
  secretLabel,
  copyLabel,
  copiedMessage,
  onClose,
}: Omit<SecretOnceDialogProps, 'title' | 'secret'> & { secret: string }) {
  const labelId = useId();
  return (
    <Stack gap="md">
      <Alert
        color="yellow"
        variant="light"
        icon={<IconAlertTriangle aria-hidden />}
        title="It will not be shown again"
      >
        {advice}
      </Alert>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {summary}
      </Text>
      <Stack gap={4}>
        <Text size="sm" fw={500} id={labelId}>
          {secretLabel}
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
                notify(copiedMessage);
              }}
              data-autofocus
            >
              {copied ? 'Copied' : copyLabel}
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
