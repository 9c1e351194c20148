import { Alert, Group, Stack } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { ActivityCard } from '../../../../components/activity/activity-card';
import { PageHeader } from '../../../../components/page-header';
import { StatusBadge } from '../../../../components/status-badge';
import { VmAddress } from '../../../../components/vm-address';
import { networkKeys } from '../../../../queries/networks';
import { vmQueries } from '../../../../queries/vms';
import { VmInterfacesList } from './interfaces/vm-interfaces-list';
import { VmSnapshotsCard } from './snapshots/vm-snapshots-card';
import { VmActions } from './vm-actions';
import { VmDangerZone } from './vm-danger-zone';
import { VmPlaceholder } from './vm-placeholder';
import { VmInfoCard } from './vm-info-card';
import { VmUsage } from './vm-usage';

/** `/virtualMachineDetails/{id}`: what the VM is, how busy it is, and what can be done with it. */
export function VmDetailsScreen({ id }: { id: number }) {
  const navigate = useNavigate();
  const vm = useQuery(vmQueries.detail(id));
  const queryClient = useQueryClient();
  const back = () => void navigate({ to: '/virtualMachines' });

  if (!vm.data) {
    return <VmPlaceholder title="Virtual Machine" onBack={back} error={vm.error} />;
  }

  const details = vm.data;
  return (
    <>
      <PageHeader
        title={details.virtualMachine.name}
        onBack={back}
        secondaryTitle={
          <Group component="span" gap="sm" wrap="nowrap">
            <StatusBadge status={details.status} />
            <VmAddress ip={details.virtualMachine.primaryIp} />
          </Group>
        }
      />
      <Stack gap="lg">
        {details.statusMessage && (
          <Alert
            color={details.status === 'Error' ? 'red' : 'blue'}
            variant="light"
            icon={<IconInfoCircle aria-hidden />}
            title={details.status === 'Error' ? 'The virtual machine is in error' : details.status}
          >
            {details.statusMessage}
          </Alert>
        )}
        <VmActions id={id} details={details} />
        <VmInfoCard
          id={id}
          details={details}
          isFetching={vm.isFetching}
          onRefresh={() => {
            void vm.refetch();
            // The page's one Refresh also reloads the interface list.
            void queryClient.refetchQueries({ queryKey: networkKeys.adaptersOf(id) });
          }}
        />
        <VmUsage usage={details.usage} />
        <VmInterfacesList vmId={id} />
        <VmSnapshotsCard vmId={id} details={details} />
        <ActivityCard filter={{ subjectType: 'vm', subjectId: id }} />
        <VmDangerZone id={id} details={details} />
      </Stack>
    </>
  );
}
