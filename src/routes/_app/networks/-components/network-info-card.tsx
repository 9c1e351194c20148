import { Badge, Box, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import type { NetworkDetails } from '../../../../api/contract/networks';
import { formatDateTime } from '../../../../components/date-format';
import { networkTypeLabels } from './network-type-cards';

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
        <Field term="Name">{network.name}</Field>
        <Field term="Region">{network.region}</Field>
        <Field term="Description">{network.description || <None />}</Field>
        <Field term="Network Type">
          <Badge variant="light" color={network.networkType === 'standard' ? 'blue' : 'grape'}>
            {networkTypeLabels[network.networkType]}
          </Badge>
        </Field>
        <Field term="CIDR Block">
          {/* The provider may report more than one block, separated by commas. */}
          <Lines items={network.cidrBlock.split(',').map((block) => block.trim())} />
        </Field>
        <Field term="Gateway">
          {network.gatewayIp ? (
            <Text size="sm" ff="monospace">
              {network.gatewayIp}
            </Text>
          ) : (
            <None />
          )}
        </Field>
        <Field term="DNS Servers">
          <Lines items={network.dnsNameservers} />
        </Field>
        <Field term="SNAT">
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
        </Field>
        <Field term="DHCP Pools">
          <Lines items={network.allocationPools.map((pool) => `${pool.start} - ${pool.end}`)} />
        </Field>
        <Field term="Created At">{formatDateTime(network.createdAt)}</Field>
        <Field term="Updated At">{formatDateTime(network.updatedAt)}</Field>
      </SimpleGrid>
    </Paper>
  );
}
