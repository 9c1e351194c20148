import { Group, Paper, Progress, Text, Title } from '@mantine/core';
import type { NetworkDetails } from '../../../../api/contract/networks';

const colorFor = (percent: number) => (percent >= 90 ? 'red' : percent >= 70 ? 'yellow' : 'blue');

/** How much of the DHCP pools the connected VMs take (spec section 3: used and total IPs). */
export function NetworkUsageCard({ network }: { network: NetworkDetails }) {
  return (
    <Paper withBorder radius="md" shadow="xs" p="lg">
      <Title order={3} size="h4" mb="md">
        IP Usage
      </Title>
      {network.networkType === 'custom' ? (
        <Layer2Usage connectedVms={network.connectedVms} />
      ) : (
        <PoolUsage used={network.usedIPAddresses} total={network.totalIPAddresses} />
      )}
    </Paper>
  );
}

/**
 * A custom network has no pools: "0 of 0 used, 0%" would say it is empty when VMs may be on it.
 * Say what is true instead: the guests pick their own addresses.
 */
function Layer2Usage({ connectedVms }: { connectedVms: number }) {
  return (
    <>
      <Text size="sm" fw={500}>
        No addresses are managed on a layer 2 network
      </Text>
      <Text size="sm" c="dimmed" mt={4}>
        {connectedVms === 1 ? '1 VM is connected' : `${connectedVms} VMs are connected`}; their
        guests set their own addresses.
      </Text>
    </>
  );
}

function PoolUsage({ used, total }: { used: number; total: number }) {
  const percent = total > 0 ? Math.min(100, Math.round((used / total) * 100)) : 0;
  return (
    <>
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
    </>
  );
}
