import {
  Alert,
  Button,
  Group,
  Loader,
  Modal,
  MultiSelect,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { OperationStarted } from './operation-started';
import { IconAlertCircle, IconAlertTriangle } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { VmDetails, VmStatus } from '../../../../api/contract/vms';
import { DROPDOWN_DEFAULTS } from '../../../../components/dropdown';
import { vmErrorLeads, withLead } from '../../../../components/error-text';
import { sshKeyQueries } from '../../../../queries/ssh-keys';
import { catalogQueries, vmKeys, vmMutations } from '../../../../queries/vms';
import { keyTypeLabel, sshKeyErrorLeads } from '../../-components/ssh-keys/ssh-key-labels';

export const REINSTALL_ERROR_LEAD = 'Error reinstalling virtual machine';

interface ReinstallModalProps {
  opened: boolean;
  onClose: () => void;
  id: number;
  details: VmDetails;
}

/**
 * Reinstall: the image (the current one first), the account keys the guest gets instead of a new
 * key pair, a warning that the disk is wiped, and the VM's name typed before anything happens.
 * Once accepted the dialog says where the new credentials will be; a failure keeps the form as
 * it was, with the server's reason.
 */
export function ReinstallModal({ opened, onClose, id, details }: ReinstallModalProps) {
  const reinstall = useMutation(vmMutations.reinstall());
  useFreshPasswordAfterReinstall(id, details.status);
  const close = () => {
    if (reinstall.isPending) return;
    reinstall.reset();
    onClose();
  };
  const name = details.virtualMachine.name;
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={`Reinstall ${name}`}
      centered
      closeOnClickOutside={!reinstall.isPending}
      closeOnEscape={!reinstall.isPending}
      withCloseButton={!reinstall.isPending}
    >
      {reinstall.isSuccess ? (
        <OperationStarted onReturn={close}>
          The reinstall has started; it takes a few minutes. When it ends, the new password is shown
          under Password on this page
          {reinstall.variables.sshKeyIds?.length
            ? ', and the SSH keys you chose log in.'
            : ', and Download Private Key gives the new private key.'}
        </OperationStarted>
      ) : (
        <ReinstallForm
          id={id}
          details={details}
          error={reinstall.error}
          pending={reinstall.isPending}
          onCancel={close}
          onReinstall={(body) => reinstall.mutate({ id, ...body })}
        />
      )}
    </Modal>
  );
}

/**
 * The password on screen (or in the cache) is the old one until the reinstall ends: once the VM
 * leaves Reinstalling it is asked for again.
 */
function useFreshPasswordAfterReinstall(id: number, status: VmStatus) {
  const queryClient = useQueryClient();
  const previous = useRef(status);
  useEffect(() => {
    if (previous.current === 'Reinstalling' && status !== 'Reinstalling') {
      void queryClient.invalidateQueries({ queryKey: vmKeys.password(id), exact: true });
    }
    previous.current = status;
  }, [id, status, queryClient]);
}

interface ReinstallFormProps {
  id: number;
  details: VmDetails;
  error: Error | null;
  pending: boolean;
  onCancel: () => void;
  onReinstall: (body: { imageId: number; sshKeyIds?: number[] }) => void;
}

function ReinstallForm({ id, details, error, pending, onCancel, onReinstall }: ReinstallFormProps) {
  const vm = details.virtualMachine;
  const images = useQuery(catalogQueries.vmImages(vm.regionId, id));
  const keys = useQuery(sshKeyQueries.list());
  const [chosenImage, setChosenImage] = useState<string | null>(String(vm.imageId));
  const [sshKeyIds, setSshKeyIds] = useState<number[]>([]);
  const [typed, setTyped] = useState('');

  const offered = images.data?.map((image) => ({ value: String(image.id), label: image.name }));
  // The current image may no longer be offered: then nothing is chosen for the user.
  const imageValue = offered && !offered.some((o) => o.value === chosenImage) ? null : chosenImage;
  const ready = imageValue !== null && offered !== undefined && typed === vm.name;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready || pending) return;
    onReinstall({ imageId: Number(imageValue), ...(sshKeyIds.length ? { sshKeyIds } : {}) });
  };

  return (
    <form onSubmit={submit} aria-label="Reinstall" noValidate>
      <Stack gap="md">
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertTriangle aria-hidden />}
          title="Everything on its disk is erased"
          // A warning read with the form, not an alert announced on its own.
          role="note"
        >
          The disk is laid down afresh from the image: files, programs and settings on it are lost
          for good. The virtual machine keeps its name, size, team, network interfaces and public IP
          addresses, and gets a new password.
        </Alert>
        <Select
          {...DROPDOWN_DEFAULTS}
          label="Image"
          name="imageId"
          data={offered ?? []}
          value={imageValue}
          onChange={setChosenImage}
          allowDeselect={false}
          searchable
          disabled={!offered}
          rightSection={images.isPending ? <Loader size="xs" aria-label="Loading images" /> : null}
          description={`Now: ${vm.image}`}
        />
        {images.error && (
          <Alert color="red" variant="light" role="alert">
            {withLead(vmErrorLeads.fetchImages, images.error)}
          </Alert>
        )}
        <MultiSelect<number>
          {...DROPDOWN_DEFAULTS}
          label="SSH keys"
          name="sshKeyIds"
          description={
            sshKeyIds.length
              ? 'Only these keys log in with SSH (besides the password); no key pair is generated.'
              : 'None chosen: a new key pair is generated, its private key downloads from this page.'
          }
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          placeholder={sshKeyIds.length ? undefined : 'Generate a new key pair'}
          data={(keys.data ?? []).map((key) => ({
            value: key.id,
            label: `${key.name} (${keyTypeLabel(key)})`,
          }))}
          value={sshKeyIds}
          onChange={setSshKeyIds}
          disabled={keys.data?.length === 0}
          searchable
          clearable
          hidePickedOptions
          rightSection={keys.isPending ? <Loader size="xs" aria-label="Loading SSH keys" /> : null}
        />
        {keys.error && !keys.data && (
          <Alert color="red" variant="light" role="alert">
            {withLead(sshKeyErrorLeads.fetch, keys.error)}
          </Alert>
        )}
        <TextInput
          label={
            <>
              Type{' '}
              <Text span fw={700} ff="monospace" fz="inherit">
                {vm.name}
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
        {error && (
          <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden />} role="alert">
            {withLead(REINSTALL_ERROR_LEAD, error)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" color="red" disabled={!ready} loading={pending}>
            Reinstall
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
