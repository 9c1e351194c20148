import { Badge, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { DetailField } from '../../../../components/detail-field';
import type { NetworkDetails } from '../../../../api/contract/networks';
import { formatDateTime } from '../../../../components/date-format';
import { networkTypeLabels } from './network-type-cards';

const None = () => (
  <Text span size="sm" c="dimmed">
    None
  </Text>
);

/** Addresses one under the other (a CIDR list, DNS servers, DHCP pools). */
function Lines({ items }: { items: string[] }) {
  if (items.length === 0) return <None />;
  return (
    <Stack gap={2}>
      {items.map((item) => (
        <Text key={item} size="sm" ff="monospace">
          {item}
        </Text>
      ))}
    </Stack>
  );
}

/** Everything a network is: where, which addresses, and what it serves its VMs. */
export function NetworkInfoCard({ network }: { network: NetworkDetails }) {
  return (
    <Paper withBorder radius="md" shadow="xs" p="lg">
      <Title order={3} size="h4" mb="md">
        Network Information
      </Title>
      <SimpleGrid component="dl" cols={{ base: 1, sm: 2 }} spacing="lg" verticalSpacing="md" m={0}>
        <DetailField term="Name">{network.name}</DetailField>
        <DetailField term="Region">{network.region}</DetailField>
        <DetailField term="Description">{network.description || <None />}</DetailField>
        <DetailField term="Network Type">
          <Badge variant="light" color={network.networkType === 'standard' ? 'blue' : 'grape'}>
            {networkTypeLabels[network.networkType]}
          </Badge>
        </DetailField>
        <DetailField term="CIDR Block">
          {/* The provider may report more than one block, separated by commas. */}
          <Lines items={network.cidrBlock.split(',').map((block) => block.trim())} />
        </DetailField>
        <DetailField term="Gateway">
          {network.gatewayIp ? (
            <Text size="sm" ff="monospace">
              {network.gatewayIp}
            </Text>
          ) : (
            <None />
          )}
        </DetailField>
        <DetailField term="DNS Servers">
          <Lines items={network.dnsNameservers} />
        </DetailField>
        <DetailField term="SNAT">
          {network.snatEnabled ? (
            <Text size="sm">
              Enabled
              {network.snat && (
                <Text span ff="monospace" size="sm">
                  {` (${network.snat})`}
                </Text>
              )}
            </Text>
          ) : (
            <Text size="sm">Disabled</Text>
          )}
        </DetailField>
        <DetailField term="DHCP Pools">
          <Lines items={network.allocationPools.map((pool) => `${pool.start} - ${pool.end}`)} />
        </DetailField>
        <DetailField term="Created At">{formatDateTime(network.createdAt)}</DetailField>
        <DetailField term="Updated At">{formatDateTime(network.updatedAt)}</DetailField>
      </SimpleGrid>
    </Paper>
  );
}
