import { Alert, Group, Paper, Stack, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useRouter } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { permissionMessages, roleAllows } from '../../../../api/contract/permissions';
import { vmMessages } from '../../../../api/contract/vms';
import { notify } from '../../../../components/notify';
import { PageHeader } from '../../../../components/page-header';
import { StatusBadge } from '../../../../components/status-badge';
import { vmQueries } from '../../../../queries/vms';
import { StopVmButton, useReloadAfterStop } from './stop-vm-button';
import { VmInterfaceEditor } from './interfaces/vm-interface-editor';
import { VmInterfacesList } from './interfaces/vm-interfaces-list';
import { VmEditForm } from './vm-edit-form';
import { VmPlaceholder } from './vm-placeholder';

/** `/virtualMachineDetails/{id}/edit`: name, team and (with the networks) interfaces of a VM. */
export function VmEditScreen({ id }: { id: number }) {
  const goBack = useGoBackToVm(id);
  const vm = useQuery(vmQueries.detail(id));
  const provisioning = vm.data?.status === 'Provisioning';
  const reloadAfterStop = useReloadAfterStop(id);

  // Spec section 4: a VM still being built cannot be edited. Once, even when development mode
  // runs effects twice.
  const refused = useRef(false);
  useEffect(() => {
    if (!provisioning || refused.current) return;
    refused.current = true;
    notify(vmMessages.stillProvisioning, { type: 'warning' });
    goBack();
  }, [provisioning, goBack]);

  if (!vm.data || provisioning) {
    return <VmPlaceholder title="Edit Virtual Machine" onBack={goBack} error={vm.error} />;
  }

  const details = vm.data;
  const canOperate = roleAllows(details.yourRoleId, 'vm.operate');
  const canEdit = roleAllows(details.yourRoleId, 'vm.edit');
  return (
    <>
      <PageHeader
        title={`Edit ${details.virtualMachine.name}`}
        onBack={goBack}
        secondaryTitle={<StatusBadge status={details.status} />}
      />
      <Stack gap="lg">
        <Paper withBorder radius="md" shadow="xs" p="lg" maw={640}>
          <Group justify="space-between" mb="md">
            <Title order={3} size="h4">
              Virtual Machine
            </Title>
            {canOperate && details.status === 'Running' && (
              <StopVmButton
                id={id}
                name={details.virtualMachine.name}
                onStopped={reloadAfterStop}
              />
            )}
          </Group>
          {canEdit ? (
            // Keyed: after a save or on another VM the form starts from the stored values.
            <VmEditForm
              key={`${id}:${details.virtualMachine.name}:${details.virtualMachine.teamId}`}
              id={id}
              details={details}
              onCancel={goBack}
            />
          ) : (
            // A link from elsewhere; the server would refuse the save anyway.
            <Alert color="yellow" variant="light" icon={<IconAlertCircle aria-hidden />}>
              {permissionMessages.forbidden}
            </Alert>
          )}
        </Paper>
        {canEdit ? (
          <VmInterfaceEditor id={id} details={details} onStopped={reloadAfterStop} />
        ) : (
          <VmInterfacesList vmId={id} />
        )}
      </Stack>
    </>
  );
}

/**
 * Back to where the user came from, which is the VM's details when they pressed Edit VM. Opened
 * by its address (a bookmark, a new tab) there is nothing to go back to: to the VM's details
 * then, not the VM list, so Cancel never loses the VM the user was looking at.
 */
function useGoBackToVm(id: number) {
  const router = useRouter();
  const navigate = useNavigate();
  return () => {
    if (router.history.canGoBack()) router.history.back();
    else
      void navigate({
        to: '/virtualMachineDetails/$virtualMachineId',
        params: { virtualMachineId: id },
      });
  };
}
