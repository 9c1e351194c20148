import { Text, TextInput } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { ConfirmDialog, type ConfirmDialogProps } from './confirm-dialog';

interface TypedNameConfirmDialogProps extends Pick<
  ConfirmDialogProps,
  'confirmLabel' | 'busyLabel'
> {
  opened: boolean;
  /** The resource's name, which the user types to confirm. */
  name: string;
  title: string;
  /** The warning: what is lost. */
  children: ReactNode;
  errorLead: string;
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
}

/**
 * A deletion that cannot be undone (or an action as grave, such as suspending a customer),
 * confirmed by typing the resource's name: the confirm button stays disabled until the name
 * matches exactly, so a hurried Enter or a click on the wrong page does nothing.
 */
export function TypedNameConfirmDialog({
  opened,
  name,
  title,
  children,
  errorLead,
  onConfirm,
  onClose,
  confirmLabel,
  busyLabel,
}: TypedNameConfirmDialogProps) {
  const [typed, setTyped] = useState('');
  const close = () => {
    setTyped('');
    onClose();
  };
  return (
    <ConfirmDialog
      opened={opened}
      title={title}
      errorLead={errorLead}
      confirmLabel={confirmLabel}
      busyLabel={busyLabel}
      onConfirm={onConfirm}
      onClose={close}
      confirmDisabled={typed !== name}
      extra={
        <TextInput
          mt="md"
          label={
            <>
              Type{' '}
              <Text span fw={700} ff="monospace" fz="inherit">
                {name}
              </Text>{' '}
              to confirm
            </>
          }
          value={typed}
          onChange={(event) => setTyped(event.currentTarget.value)}
          autoComplete="off"
          spellCheck={false}
          data-autofocus
        />
      }
    >
      {children}
    </ConfirmDialog>
  );
}
