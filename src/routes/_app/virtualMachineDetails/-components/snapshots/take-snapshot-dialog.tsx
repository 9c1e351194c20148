import { Alert, Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import {
  SNAPSHOT_NAME_MAX,
  snapshotMessages,
  snapshotName,
} from '../../../../../api/contract/vm-snapshots';
import { withLead } from '../../../../../components/error-text';
import { notify } from '../../../../../components/notify';
import { snapshotMutations } from '../../../../../queries/vm-snapshots';

/** Asks for the snapshot's name and takes it; a refusal stays in the dialog with the name kept. */
export function TakeSnapshotDialog(props: { vmId: number; opened: boolean; onClose: () => void }) {
  const { vmId, opened, onClose } = props;
  const create = useMutation(snapshotMutations.create(vmId));
  const [name, setName] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);

  const close = () => {
    setName('');
    setFieldError(null);
    create.reset();
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = snapshotName.safeParse(name);
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message ?? snapshotMessages.nameRequired);
      return;
    }
    create.mutate(parsed.data, {
      onSuccess: () => {
        notify(snapshotMessages.creating);
        close();
      },
    });
  };

  return (
    <Modal opened={opened} onClose={close} title="Take snapshot" centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          {create.error && (
            <Alert color="red" variant="light" role="alert">
              {withLead('Error taking snapshot', create.error)}
            </Alert>
          )}
          <TextInput
            label="Name"
            description="The disk is saved as it is now; the VM keeps running."
            placeholder="before-upgrade"
            required
            data-autofocus
            maxLength={SNAPSHOT_NAME_MAX + 20}
            value={name}
            error={fieldError}
            onChange={(event) => {
              setName(event.currentTarget.value);
              setFieldError(null);
            }}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={create.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Take snapshot
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
