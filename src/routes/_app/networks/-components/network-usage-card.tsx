import { Group, Paper, Progress, Text, Title } from '@mantine/core';
import type { NetworkDetails } from '../../../../api/contract/networks';

const colorFor = (percent: number) => (percent >= 90 ? 'red' : percent >= 70 ? 'yellow' : 'blue');

/** How much of the DHCP pools the connected VMs take (spec section 3: used and total IPs). */
export function NetworkUsageCard({ network }: { network: NetworkDetails }) {
  const { usedIPAddresses: used, totalIPAddresses: total } = network;
  const percent = total > 0 ? Math.min(100, Math.round((used / total) * 100)) : 0;
  return (
    <Paper withBorder radius="md" shadow="xs" p="lg">
      <Title order={3} size="h4" mb="md">
        IP Usage
      </Title>
      <Group justify="space-between" mb={6}>
        <Text size="sm" fw={500}>
          {used} of {total} IP addresses used
        </Text>
        <Text size="sm" c="dimmed">
          {percent}%
        </Text>
      </Group>
      <Progress
        value={percent}
        color={colorFor(percent)}
        size="lg"
        radius="xl"
        aria-label="IP usage"
      />
    </Paper>
  );
}
