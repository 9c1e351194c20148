import { Button, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconBuildings, IconPlus } from '@tabler/icons-react';

/** A reseller with no customer yet: what the list is for, and the way to add the first. */
export function CustomersEmptyState({ onAdd }: { onAdd: () => void }) {
  return (
    <Stack align="center" gap="sm" py="xl" px="md" ta="center">
      <ThemeIcon variant="light" size={44} radius="xl">
        <IconBuildings size={24} aria-hidden />
      </ThemeIcon>
      <Text fw={600}>No customers yet</Text>
      <Text size="sm" c="dimmed" maw={520}>
        Each of your customers is a company with its own console: its administrators, users, virtual
        machines and networks. Add the first with its administrator, who gets an e-mail to activate
        their account.
      </Text>
      <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={onAdd}>
        New customer
      </Button>
    </Stack>
  );
}
