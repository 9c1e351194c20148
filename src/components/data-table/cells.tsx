import { Avatar, Group, Text } from '@mantine/core';

/** Shared cell renderers, so that the same kind of value looks the same in every list. */

/** A secondary value such as an e-mail address, in dimmed text. */
export function DimmedCell({ getValue }: { getValue: () => unknown }) {
  return (
    <Text size="sm" c="dimmed">
      {String(getValue() ?? '')}
    </Text>
  );
}

/** The name that identifies a row (a VM's, a network's). */
export function NameCell({ getValue }: { getValue: () => unknown }) {
  return (
    <Text size="sm" fw={500}>
      {String(getValue() ?? '')}
    </Text>
  );
}

/** A person: initials avatar and name. */
export function PersonCell({ name }: { name: string }) {
  return (
    <Group gap="sm" wrap="nowrap">
      <Avatar color="initials" name={name} radius="xl" size={32} />
      <Text size="sm" fw={500}>
        {name}
      </Text>
    </Group>
  );
}
