import { Button, Group, Paper, Text, Title } from '@mantine/core';
import {
  IconArrowUpCircle,
  IconDownload,
  IconPencil,
  IconPlayerPlay,
  IconPlayerStop,
  IconRefreshAlert,
  IconRotateClockwise,
  IconTerminal2,
} from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { roleAllows, type TeamPermission } from '../../../../api/contract/permissions';
import { vmRules, type VmDetails } from '../../../../api/contract/vms';
import { ButtonLink } from '../../../../components/button-link';
import { downloadTextFile } from '../../../../components/download-file';
import { errorMessage } from '../../../../components/error-text';
import { notify } from '../../../../components/notify';
import { vmMutations } from '../../../../queries/vms';
import { ReinstallModal } from './reinstall-modal';
import { UpgradeModal } from './upgrade-modal';
import { VmConfirmations, type VmAction } from './vm-confirmations';

/** Spec section 9: the private key downloads under this name. */
export const PRIVATE_KEY_FILE = 'privateKey.pem';

/**
 * The action card: what the VM's status allows (spec section 4) and the caller's role permits.
 * Actions the role does not permit are not shown; those the status forbids for now are disabled.
 * Delete is not among them: it waits in the Danger zone at the foot of the page.
 */
export function VmActions({ id, details }: { id: number; details: VmDetails }) {
  const navigate = useNavigate();
  const { status } = details;
  const can = (permission: TeamPermission) => roleAllows(details.yourRoleId, permission);
  const provisioning = status === 'Provisioning';
  const mayAct = (['vm.operate', 'vm.resize', 'vm.edit', 'vm.delete'] as const).some(can);
  const [confirming, setConfirming] = useState<{ action: VmAction; opened: boolean } | null>(null);
  const [upgrading, setUpgrading] = useState(false);
  const [reinstalling, setReinstalling] = useState(false);
  const accessKey = useMutation(vmMutations.accessKey());

  const confirm = (action: VmAction) => setConfirming({ action, opened: true });
  const downloadKey = async () => {
    try {
      const { privateKey } = await accessKey.mutateAsync(id);
      downloadTextFile(PRIVATE_KEY_FILE, privateKey);
    } catch (error) {
      notify(errorMessage(error), { type: 'error' });
    }
  };

  return (
    <Paper withBorder radius="md" shadow="xs" p="lg">
      <Title order={3} size="h4" mb="md">
        Actions
      </Title>
      {!mayAct && (
        <Text size="sm" c="dimmed">
          Your role on this virtual machine&apos;s team lets you see it, not change it.
        </Text>
      )}
      <Group gap="sm">
        {can('vm.operate') && status === 'Running' && details.consoleAvailable && (
          <ButtonLink
            to="/virtualMachineConsole/$virtualMachineId"
            params={{ virtualMachineId: id }}
            target="_blank"
            rel="noopener noreferrer"
            variant="default"
            leftSection={<IconTerminal2 size={16} aria-hidden />}
          >
            Console
          </ButtonLink>
        )}
        {/* A VM given only account keys has no private key to download. */}
        {can('vm.operate') && details.virtualMachine.hasPrivateKey && (
          <Button
            variant="default"
            leftSection={<IconDownload size={16} aria-hidden />}
            disabled={provisioning}
            loading={accessKey.isPending}
            onClick={() => void downloadKey()}
          >
            Download Private Key
          </Button>
        )}
        {can('vm.operate') && vmRules.canStart(status) && (
          <Button
            color="green"
            leftSection={<IconPlayerPlay size={16} aria-hidden />}
            onClick={() => confirm('start')}
          >
            Start
          </Button>
        )}
        {can('vm.operate') && vmRules.canStop(status) && (
          <Button
            color="red"
            variant="light"
            leftSection={<IconPlayerStop size={16} aria-hidden />}
            onClick={() => confirm('stop')}
          >
            Stop
          </Button>
        )}
        {can('vm.operate') && vmRules.canReset(status) && (
          <Button
            variant="default"
            leftSection={<IconRotateClockwise size={16} aria-hidden />}
            onClick={() => confirm('reset')}
          >
            Reset
          </Button>
        )}
        {can('vm.resize') && (
          <Button
            variant="default"
            leftSection={<IconArrowUpCircle size={16} aria-hidden />}
            disabled={!vmRules.canResize(status)}
            onClick={() => setUpgrading(true)}
          >
            Upgrade
          </Button>
        )}
        {can('vm.operate') && (
          <Button
            variant="default"
            leftSection={<IconRefreshAlert size={16} aria-hidden />}
            disabled={!vmRules.canReinstall(status)}
            onClick={() => setReinstalling(true)}
          >
            Reinstall
          </Button>
        )}
        {can('vm.edit') && (
          <Button
            variant="default"
            leftSection={<IconPencil size={16} aria-hidden />}
            disabled={provisioning}
            onClick={() =>
              void navigate({
                to: '/virtualMachineDetails/$virtualMachineId/edit',
                params: { virtualMachineId: id },
              })
            }
          >
            Edit VM
          </Button>
        )}
      </Group>
      <VmConfirmations
        id={id}
        name={details.virtualMachine.name}
        confirming={confirming}
        onClose={() => setConfirming((current) => current && { ...current, opened: false })}
      />
      <UpgradeModal
        opened={upgrading}
        onClose={() => setUpgrading(false)}
        id={id}
        details={details}
      />
      {can('vm.operate') && (
        <ReinstallModal
          opened={reinstalling}
          onClose={() => setReinstalling(false)}
          id={id}
          details={details}
        />
      )}
    </Paper>
  );
}
