import { Button, Group, Paper, SimpleGrid, Text, Title } from '@mantine/core';
import { CopyValueButton } from '../../../../components/copy-value-button';
import { DetailField } from '../../../../components/detail-field';
import { IconRefresh } from '@tabler/icons-react';
import { roleAllows } from '../../../../api/contract/permissions';
import type { VmDetails } from '../../../../api/contract/vms';
import { REFRESH_LINGER_MS } from '../../../../components/data-table/table-toolbar';
import { useLingering } from '../../../../components/data-table/use-lingering';
import { formatDateTime } from '../../../../components/date-format';
import { VmPassword } from './vm-password';

interface VmInfoCardProps {
  id: number;
  details: VmDetails;
  isFetching: boolean;
  onRefresh: () => void;
}

/** The Details card: what the VM is, where it runs, and how to sign in to it. */
export function VmInfoCard({ id, details, isFetching, onRefresh }: VmInfoCardProps) {
  const vm = details.virtualMachine;
  const refreshing = useLingering(isFetching, REFRESH_LINGER_MS);
  return (
    <Paper withBorder radius="md" shadow="xs" p="lg">
      <Group justify="space-between" mb="md">
        <Title order={3} size="h4">
          Details
        </Title>
        <Button
          variant="default"
          size="xs"
          leftSection={<IconRefresh size={14} aria-hidden />}
          loading={refreshing}
          onClick={onRefresh}
        >
          Refresh
        </Button>
      </Group>
      <SimpleGrid component="dl" cols={{ base: 1, sm: 2 }} spacing="lg" verticalSpacing="md" m={0}>
        <DetailField term="Name">{vm.name}</DetailField>
        <DetailField term="Country">{vm.country}</DetailField>
        <DetailField term="Size type">{vm.configuration}</DetailField>
        <DetailField term="Region">{vm.region}</DetailField>
        <DetailField term="Image">{vm.image}</DetailField>
        <DetailField term="Created At">{formatDateTime(vm.createdAt)}</DetailField>
        <DetailField term="CPU">{vm.cpu}</DetailField>
        <DetailField term="Last Updated At">{formatDateTime(vm.updatedAt)}</DetailField>
        <DetailField term="RAM in GB">{vm.ram}</DetailField>
        <DetailField term="Username">
          <Group gap={4} wrap="nowrap">
            <Text span size="sm">
              {vm.username}
            </Text>
            <CopyValueButton value={vm.username} label="Username" />
          </Group>
        </DetailField>
        <DetailField term="Disk in GB">{vm.disk}</DetailField>
        <DetailField term="Password">
          <VmPassword
            id={id}
            provisioning={details.status === 'Provisioning'}
            // Credentials are for those who may operate the VM; the server refuses anyone else.
            canReveal={roleAllows(details.yourRoleId, 'vm.operate')}
          />
        </DetailField>
        <DetailField term="Team">{vm.teamName ?? 'No team'}</DetailField>
      </SimpleGrid>
    </Paper>
  );
}
