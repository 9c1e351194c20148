import { Alert, Center, Loader, Stack } from '@mantine/core';
import { IconAlertCircle, IconInfoCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { errorMessage, vmErrorLeads } from '../../../../components/error-text';
import { PageHeader } from '../../../../components/page-header';
import { StatusBadge } from '../../../../components/status-badge';
import { vmQueries } from '../../../../queries/vms';
import { VmActions } from './vm-actions';
import { VmInfoCard } from './vm-info-card';
import { VmUsage } from './vm-usage';

/** `/virtualMachineDetails/{id}`: what the VM is, how busy it is, and what can be done with it. */
export function VmDetailsScreen({ id }: { id: number }) {
  const navigate = useNavigate();
  const vm = useQuery(vmQueries.detail(id));
  const back = () => void navigate({ to: '/virtualMachines' });

  if (!vm.data) {
    return (
      <>
        <PageHeader title="Virtual Machine" onBack={back} />
        {vm.error ? (
          <Alert
            color="red"
            variant="light"
            title={vmErrorLeads.fetchVm}
            icon={<IconAlertCircle aria-hidden />}
          >
            {errorMessage(vm.error)}
          </Alert>
        ) : (
          <Center py="xl">
            <Loader size="sm" aria-label="Loading virtual machine" />
          </Center>
        )}
      </>
    );
  }

  const details = vm.data;
  return (
    <>
      <PageHeader
        title={details.virtualMachine.name}
        onBack={back}
        secondaryTitle={<StatusBadge status={details.status} />}
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
          onRefresh={() => void vm.refetch()}
        />
        <VmUsage usage={details.usage} />
        {/*
          NETWORK INTERFACES (read-only list of the VM's interfaces: vmnic, network, CIDR, gateway,
          private IP, MAC, public IP). Comes with the networks issue; mount it here.
        */}
      </Stack>
    </>
  );
}
