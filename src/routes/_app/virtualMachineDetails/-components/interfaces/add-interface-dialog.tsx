import { Alert, Button, Center, Group, Loader, Modal, Select, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { networkMessages } from '../../../../../api/contract/networks';
import { DROPDOWN_DEFAULTS } from '../../../../../components/dropdown';
import { errorMessage, networkErrorLeads } from '../../../../../components/error-text';
import { notify } from '../../../../../components/notify';
import { networkMutations, networkQueries } from '../../../../../queries/networks';
import { interfaceToasts } from './interface-operations';

const useAddInterface = () => useMutation(networkMutations.addInterface());

/** Spec section 9: attaching an interface can take up to 2 minutes. */
export const ADD_INTERFACE_WAIT_MS = 2 * 60_000;

interface AddInterfaceDialogProps {
  vmId: number;
  vmName: string;
  opened: boolean;
  /** The interface being attached once the request was accepted; the dialog then waits. */
  waitingFor: number | null;
  onAccepted: (interfaceId: number) => void;
  onClose: () => void;
}

/**
 * Picks a network the VM may join and attaches it. The provider can take up to 2 minutes; the
 * dialog waits, closing by itself once the interface is attached, or 'Continue Working' closes it
 * while the list keeps showing the interface as Attaching.
 */
export function AddInterfaceDialog(props: AddInterfaceDialogProps) {
  const { opened, waitingFor, onClose } = props;
  const add = useAddInterface();
  // Held open while the request runs: its answer decides what the dialog shows next.
  const closable = !add.isPending;
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={waitingFor === null ? 'Add Network Interface' : 'Attaching Network Interface'}
      centered
      closeOnEscape={closable}
      closeOnClickOutside={closable}
      withCloseButton={closable}
    >
      {waitingFor === null ? <NetworkPicker {...props} add={add} /> : <Waiting onClose={onClose} />}
    </Modal>
  );
}

function NetworkPicker({
  vmId,
  vmName,
  onAccepted,
  onClose,
  add,
}: AddInterfaceDialogProps & { add: ReturnType<typeof useAddInterface> }) {
  const available = useQuery(networkQueries.available(vmId));
  const [networkId, setNetworkId] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const submit = async () => {
    if (available.data?.length === 0) return setProblem(networkMessages.noAvailableNetworks);
    if (networkId === null) return setProblem(networkMessages.selectNetworkFirst);
    setProblem(null);
    try {
      const { data } = await add.mutateAsync({ vmId, networkId });
      onAccepted(data.interfaceId);
    } catch (error) {
      notify(interfaceToasts.add.failed, { type: 'error' });
      setProblem(errorMessage(error));
    }
  };

  let picker;
  if (available.error) {
    picker = (
      <Alert color="red" variant="light" title={networkErrorLeads.fetchAvailableNetworks}>
        {errorMessage(available.error)}
      </Alert>
    );
  } else if (!available.data) {
    picker = (
      <Center py="md">
        <Loader size="sm" aria-label="Loading available networks" />
      </Center>
    );
  } else if (available.data.length === 0) {
    picker = (
      <Text size="sm" c="dimmed">
        No available networks found. Networks must be in the same region as the VM.
      </Text>
    );
  } else {
    picker = (
      <Select<number>
        {...DROPDOWN_DEFAULTS}
        label="Network"
        data={available.data.map((network) => ({
          value: network.id,
          label: `${network.name} (${network.cidrBlock})`,
        }))}
        value={networkId}
        onChange={(value) => {
          setNetworkId(value);
          setProblem(null);
        }}
        searchable
        data-autofocus
      />
    );
  }

  return (
    <Stack gap="md">
      <Text size="sm">Connect {vmName} to one more network of its region.</Text>
      {picker}
      {problem && (
        <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden />} role="alert">
          {problem}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose} disabled={add.isPending}>
          Cancel
        </Button>
        <Button onClick={() => void submit()} loading={add.isPending} disabled={!available.data}>
          Add Interface
        </Button>
      </Group>
    </Stack>
  );
}

function Waiting({ onClose }: { onClose: () => void }) {
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    const timer = window.setTimeout(() => setSlow(true), ADD_INTERFACE_WAIT_MS);
    return () => window.clearTimeout(timer);
  }, []);
  return (
    <Stack gap="md">
      <Group gap="sm" wrap="nowrap">
        <Loader size="sm" aria-hidden />
        <Text size="sm">
          {slow
            ? 'This is taking longer than usual. The interface shows as Attaching in the list until the provider has attached it.'
            : 'The interface is being attached. This can take up to 2 minutes; you can continue working meanwhile.'}
        </Text>
      </Group>
      <Group justify="flex-end">
        <Button onClick={onClose} data-autofocus>
          Continue Working
        </Button>
      </Group>
    </Stack>
  );
}
