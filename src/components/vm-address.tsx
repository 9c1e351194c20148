import { Group, Text } from '@mantine/core';
import type { PrimaryIp } from '../api/contract/vms';
import { CopyValueButton } from './copy-value-button';

const kindLabels = { public: 'Public IP', private: 'Private IP' } as const;

/**
 * A VM's primary address with its kind and a copy button; nothing while it has none. Inline
 * (spans and a button), so it can sit in a line of text such as a page's secondary title.
 */
export function VmAddress({ ip }: { ip: PrimaryIp }) {
  if (!ip) return null;
  const label = kindLabels[ip.kind];
  return (
    <Group component="span" gap={4} wrap="nowrap" data-vm-address={ip.kind}>
      <Text span size="xs" c="dimmed">
        {label}
      </Text>
      <Text span size="xs" ff="monospace">
        {ip.address}
      </Text>
      <CopyValueButton value={ip.address} label={label} />
    </Group>
  );
}
