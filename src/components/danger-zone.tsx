import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';

interface DangerZoneProps {
  /** What the action does, e.g. 'Delete this virtual machine'. */
  heading: string;
  /** What is lost, and why the action may be unavailable now. */
  description: ReactNode;
  actionLabel: string;
  /** The button's icon: a bin unless the action deletes nothing (suspending, say). */
  actionIcon?: ReactNode;
  disabled?: boolean;
  onAction: () => void;
}

/**
 * Destructive actions apart from the everyday ones: a red-bordered card at the foot of a details
 * page, its button outlined rather than solid, and each action confirmed by typing a name.
 */
export function DangerZone({
  heading,
  description,
  actionLabel,
  actionIcon = <IconTrash size={16} aria-hidden />,
  disabled,
  onAction,
}: DangerZoneProps) {
  return (
    <Paper
      component="section"
      aria-labelledby="danger-zone-title"
      withBorder
      radius="md"
      p="lg"
      style={{ borderColor: 'var(--mantine-color-red-outline)' }}
    >
      <Title order={3} size="h4" c="red" mb="md" id="danger-zone-title">
        Danger zone
      </Title>
      <Group justify="space-between" align="center" gap="md">
        <Stack gap={2} miw={0} style={{ flex: '1 1 16rem' }}>
          <Text fw={600} size="sm">
            {heading}
          </Text>
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        </Stack>
        <Button
          color="red"
          variant="outline"
          leftSection={actionIcon}
          disabled={disabled}
          onClick={onAction}
        >
          {actionLabel}
        </Button>
      </Group>
    </Paper>
  );
}
