import {
  Alert,
  Button,
  Group,
  LoadingOverlay,
  Modal,
  Text,
  type MantineColor,
} from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { withLead } from './error-text';

export interface ConfirmDialogProps {
  opened: boolean;
  title: string;
  children: ReactNode;
  confirmLabel?: string;
  /** Red unless the action destroys nothing (starting a VM, say). */
  confirmColor?: MantineColor;
  /** Shown over the dialog while the action runs, e.g. 'Deleting...'. */
  busyLabel?: string;
  /** Put before the server's message when the action fails, e.g. 'Error deleting team'. */
  errorLead: string;
  /** Runs the action; the dialog closes when it resolves and stays open with the error otherwise. */
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
  /** Keeps the confirm button disabled, e.g. until the resource's name is typed. */
  confirmDisabled?: boolean;
  /** Under the warning: a field the confirmation needs. */
  extra?: ReactNode;
}

/** The one confirmation dialog for destructive actions: busy overlay, error kept in the dialog. */
export function ConfirmDialog({
  opened,
  title,
  children,
  confirmLabel = 'Delete',
  confirmColor = 'red',
  busyLabel = 'Deleting...',
  errorLead,
  onConfirm,
  onClose,
  confirmDisabled = false,
  extra,
}: ConfirmDialogProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    if (busy) return;
    setError(null);
    onClose();
  };

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      setBusy(false);
      onClose();
    } catch (failure) {
      setBusy(false);
      setError(withLead(errorLead, failure));
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={title}
      centered
      closeOnClickOutside={!busy}
      closeOnEscape={!busy}
      withCloseButton={!busy}
    >
      <LoadingOverlay
        visible={busy}
        loaderProps={{ children: <Text fw={500}>{busyLabel}</Text> }}
        zIndex={10}
      />
      <Text size="sm">{children}</Text>
      {extra}
      {error && (
        <Alert color="red" mt="md" role="alert">
          {error}
        </Alert>
      )}
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={close} disabled={busy}>
          Cancel
        </Button>
        <Button
          color={confirmColor}
          onClick={() => void confirm()}
          disabled={busy || confirmDisabled}
          data-autofocus
        >
          {confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}
