import { Group, Radio, SimpleGrid, Stack, Text } from '@mantine/core';
import { useStore } from '@tanstack/react-form';
import { networkMessages, type NetworkType } from '../../../../api/contract/networks';
import { useFieldContext } from '../../../../components/form';

export const networkTypeLabels: Record<NetworkType, string> = {
  standard: 'Standard',
  custom: 'Custom',
};

const descriptions: Record<NetworkType, string> = {
  standard:
    'DHCP, a default route and DNS servers for its VMs, with SNAT always on: VMs reach the internet and can get public IPs.',
  custom:
    'Layer 2 only: no DHCP, no SNAT and no default route. The VMs on it configure their addresses themselves.',
};

/** The network type as two cards; fixed once the network exists (`locked`). */
export function NetworkTypeCards({ locked }: { locked: boolean }) {
  const field = useFieldContext<NetworkType>();
  const value = useStore(field.store, (state) => state.value);
  return (
    <Radio.Group
      label="Network Type"
      description={locked ? networkMessages.typeFixed : undefined}
      value={value}
      onChange={(next) => field.handleChange(next as NetworkType)}
      name={field.name}
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }} mt="xs">
        {(['standard', 'custom'] as const).map((type) => (
          <Radio.Card
            key={type}
            value={type}
            radius="md"
            p="md"
            disabled={locked}
            aria-label={networkTypeLabels[type]}
            style={locked && type !== value ? { opacity: 0.55 } : undefined}
          >
            <Group wrap="nowrap" align="flex-start" gap="sm">
              <Radio.Indicator disabled={locked} />
              <Stack gap={4}>
                <Text fw={600} size="sm">
                  {networkTypeLabels[type]}
                </Text>
                <Text size="xs" c="dimmed">
                  {descriptions[type]}
                </Text>
              </Stack>
            </Group>
          </Radio.Card>
        ))}
      </SimpleGrid>
    </Radio.Group>
  );
}
