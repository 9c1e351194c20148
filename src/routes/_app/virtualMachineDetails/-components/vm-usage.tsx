import { Group, Paper, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { VmDetails } from '../../../../api/contract/vms';

const colorFor = (percent: number) => (percent >= 90 ? 'red' : percent >= 70 ? 'yellow' : 'blue');

function UsageBar({ label, percent }: { label: string; percent: number }) {
  const value = Math.round(Math.min(100, Math.max(0, percent)));
  return (
    <Stack gap={6}>
      <Group justify="space-between">
        <Text size="sm" fw={500}>
          {label}
        </Text>
        <Text size="sm" c="dimmed">
          {value}%
        </Text>
      </Group>
      <Progress value={value} color={colorFor(value)} size="lg" radius="xl" aria-label={label} />
    </Stack>
  );
}

/** CPU and memory in use, as percentages (0 while the VM does not run). */
export function VmUsage({ usage }: { usage: VmDetails['usage'] }) {
  return (
    <Paper withBorder radius="md" shadow="xs" p="lg">
      <Title order={3} size="h4" mb="md">
        Resource Usage
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xl">
        <UsageBar label="CPU usage" percent={usage.cpuUsage} />
        <UsageBar label="Memory usage" percent={usage.ramUsage} />
      </SimpleGrid>
    </Paper>
  );
}
