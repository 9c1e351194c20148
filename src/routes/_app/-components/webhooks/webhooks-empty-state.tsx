import { Button, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconPlus, IconWebhook } from '@tabler/icons-react';
import { webhookTexts } from './webhook-labels';

/** No webhook yet: what one is for, and the way to add the first. */
export function WebhooksEmptyState({ onAdd }: { onAdd: () => void }) {
  return (
    <Stack align="center" gap="sm" py="xl" px="md" ta="center">
      <ThemeIcon variant="light" size={44} radius="xl">
        <IconWebhook size={24} aria-hidden />
      </ThemeIcon>
      <Text fw={600}>No webhooks yet</Text>
      <Text size="sm" c="dimmed" maw={520}>
        A webhook sends your company's events to a URL of yours as they happen: a VM created or
        deleted, an upgrade finished, a user invited. Billing and provisioning systems use them to
        keep up without asking again and again.
      </Text>
      <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={onAdd}>
        {webhookTexts.add}
      </Button>
    </Stack>
  );
}
