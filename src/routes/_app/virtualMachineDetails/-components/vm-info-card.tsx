import { Box, Button, Group, Paper, SimpleGrid, Text, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { roleAllows } from '../../../../api/contract/permissions';
import type { VmDetails } from '../../../../api/contract/vms';
import { REFRESH_LINGER_MS } from '../../../../components/data-table/table-toolbar';
import { useLingering } from '../../../../components/data-table/use-lingering';
import { formatDateTime } from '../../../../components/date-format';
import { VmPassword } from './vm-password';

function Field({ term, children }: { term: string; children: ReactNode }) {
  return (
    <Box>
      <Text component="dt" size="xs" c="dimmed" tt="uppercase" fw={600}>
        {term}
      </Text>
      <Box component="dd" m={0} mt={2} fz="sm" data-term={term}>
        {children}
      </Box>
    </Box>
  );
}

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
        <Field term="Name">{vm.name}</Field>
        <Field term="Country">{vm.country}</Field>
        <Field term="Size type">{vm.configuration}</Field>
        <Field term="Region">{vm.region}</Field>
        <Field term="Image">{vm.image}</Field>
        <Field term="Created At">{formatDateTime(vm.createdAt)}</Field>
        <Field term="CPU">{vm.cpu}</Field>
        <Field term="Last Updated At">{formatDateTime(vm.updatedAt)}</Field>
        <Field term="RAM in GB">{vm.ram}</Field>
        <Field term="Username">{vm.username}</Field>
        <Field term="Disk in GB">{vm.disk}</Field>
        <Field term="Password">
          <VmPassword
            id={id}
            provisioning={details.status === 'Provisioning'}
            // Credentials are for those who may operate the VM; the server refuses anyone else.
            canReveal={roleAllows(details.yourRoleId, 'vm.operate')}
          />
        </Field>
        <Field term="Team">{vm.teamName ?? 'No team'}</Field>
      </SimpleGrid>
    </Paper>
  );
}
