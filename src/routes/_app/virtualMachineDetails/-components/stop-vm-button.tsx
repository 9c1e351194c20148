import { Button } from '@mantine/core';
import { IconPlayerStop } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ConfirmDialog } from '../../../../components/confirm-dialog';
import { notify } from '../../../../components/notify';
import { vmKeys, vmMutations } from '../../../../queries/vms';

/** Spec section 9: after a stop on the edit page, the page reloads after this long. */
export const RELOAD_AFTER_STOP_MS = 1_500;

export const stopMessages = {
  stopped: 'VM stopped successfully',
  failed: 'Failed to stop VM',
} as const;

/**
 * The edit page reloads its VM 1.5 s after a stop (spec section 4). Held by the page: the Stop
 * button itself goes away as soon as the VM is no longer Running.
 */
export function useReloadAfterStop(id: number) {
  const queryClient = useQueryClient();
  const [stops, setStops] = useState(0);
  useEffect(() => {
    if (stops === 0) return;
    const timer = window.setTimeout(
      () => void queryClient.refetchQueries({ queryKey: vmKeys.detail(id), exact: true }),
      RELOAD_AFTER_STOP_MS,
    );
    return () => window.clearTimeout(timer);
  }, [stops, id, queryClient]);
  return () => setStops((count) => count + 1);
}

interface StopVmDialogProps {
  id: number;
  name: string;
  opened: boolean;
  onClose: () => void;
  onStopped: () => void;
  /** Why the stop is asked for, before the usual warning. */
  reason?: string;
}

/** Stopping a VM, with its confirmation and toasts (also offered by the interface editor). */
export function StopVmDialog({ id, name, opened, onClose, onStopped, reason }: StopVmDialogProps) {
  const stop = useMutation(vmMutations.stop());
  return (
    <ConfirmDialog
      opened={opened}
      title={`Stop ${name}?`}
      confirmLabel="Stop"
      busyLabel="Stopping..."
      errorLead={stopMessages.failed}
      onConfirm={async () => {
        try {
          await stop.mutateAsync(id);
        } catch (error) {
          notify(stopMessages.failed, { type: 'error' });
          throw error;
        }
        notify(stopMessages.stopped);
        onStopped();
      }}
      onClose={onClose}
    >
      {reason ? `${reason}. ` : ''}The virtual machine will shut down; whatever runs on it stops.
    </ConfirmDialog>
  );
}

interface StopVmButtonProps {
  id: number;
  name: string;
  onStopped: () => void;
}

/** The edit page's Stop VM, with its confirmation. */
export function StopVmButton({ id, name, onStopped }: StopVmButtonProps) {
  const [opened, setOpened] = useState(false);

  return (
    <>
      <Button
        color="red"
        variant="light"
        size="xs"
        leftSection={<IconPlayerStop size={14} aria-hidden />}
        onClick={() => setOpened(true)}
      >
        Stop VM
      </Button>
      <StopVmDialog
        id={id}
        name={name}
        opened={opened}
        onClose={() => setOpened(false)}
        onStopped={onStopped}
      />
    </>
  );
}
