import { Alert, Button, Center, Group, Loader, Modal, Radio, Stack, Text } from '@mantine/core';
import { OperationStarted } from './operation-started';
import { IconAlertCircle } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { VmDetails } from '../../../../api/contract/vms';
import { errorMessage, vmErrorLeads } from '../../../../components/error-text';
import { catalogQueries, vmMutations } from '../../../../queries/vms';
import { sizeLabel } from '../../-components/vms/size-label';

interface UpgradeModalProps {
  opened: boolean;
  onClose: () => void;
  id: number;
  details: VmDetails;
}

/**
 * Upgrade: the sizes offered for this VM with more CPU cores than it has now. After the request
 * is accepted the modal says the change takes up to a minute; a failure keeps the form open.
 */
export function UpgradeModal({ opened, onClose, id, details }: UpgradeModalProps) {
  const upgrade = useMutation(vmMutations.upgrade());
  const close = () => {
    if (upgrade.isPending) return;
    upgrade.reset();
    onClose();
  };
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={`Upgrade ${details.virtualMachine.name}`}
      centered
      closeOnClickOutside={!upgrade.isPending}
      closeOnEscape={!upgrade.isPending}
    >
      {upgrade.isSuccess ? (
        <OperationStarted onReturn={close}>
          The upgrade has started. The process can take up to a minute; you can close this window
          meanwhile.
        </OperationStarted>
      ) : (
        <UpgradeForm
          id={id}
          details={details}
          error={upgrade.error}
          pending={upgrade.isPending}
          onCancel={close}
          onUpgrade={(configurationId) => upgrade.mutate({ id, configurationId })}
        />
      )}
    </Modal>
  );
}

interface UpgradeFormProps {
  id: number;
  details: VmDetails;
  error: Error | null;
  pending: boolean;
  onCancel: () => void;
  onUpgrade: (configurationId: number) => void;
}

function UpgradeForm({ id, details, error, pending, onCancel, onUpgrade }: UpgradeFormProps) {
  const vm = details.virtualMachine;
  const sizes = useQuery(catalogQueries.vmConfigurations(vm.regionId, { vmId: id }));
  const [chosen, setChosen] = useState<string | null>(null);
  const larger = sizes.data?.filter((size) => size.cpu > vm.cpu).sort((a, b) => a.cpu - b.cpu);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (chosen) onUpgrade(Number(chosen));
  };

  let choices;
  if (sizes.isPending) {
    choices = (
      <Center py="md">
        <Loader size="sm" aria-label="Loading sizes" />
      </Center>
    );
  } else if (sizes.error) {
    choices = (
      <Alert color="red" variant="light" title={vmErrorLeads.fetchConfigurations}>
        {errorMessage(sizes.error)}
      </Alert>
    );
  } else if (!larger?.length) {
    choices = (
      <Text size="sm" c="dimmed">
        No larger size is available for this virtual machine.
      </Text>
    );
  } else {
    choices = (
      <Radio.Group
        label="New size"
        description={`Now: ${vm.configuration} (${vm.cpu} cores, ${vm.ram} GB RAM, ${vm.disk} GB disk)`}
        value={chosen}
        onChange={setChosen}
      >
        <Stack gap="xs" mt="xs">
          {larger.map((size) => (
            <Radio key={size.id} value={String(size.id)} label={sizeLabel(size)} />
          ))}
        </Stack>
      </Radio.Group>
    );
  }

  return (
    <form onSubmit={submit} aria-label="Upgrade" noValidate>
      <Stack gap="md">
        {choices}
        {error && (
          <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden />} role="alert">
            {errorMessage(error)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" disabled={!chosen} loading={pending}>
            Upgrade
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
