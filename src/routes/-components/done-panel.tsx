import { Button, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** The body of a card whose task is finished: a check mark, a sentence, and where to go next. */
export function DonePanel({
  children,
  action,
  onAction,
}: {
  children?: ReactNode;
  action?: string;
  onAction?: () => void;
}) {
  return (
    <Stack align="center" gap="md">
      <ThemeIcon color="teal" variant="light" size={56} radius="xl">
        <IconCheck size={30} aria-hidden />
      </ThemeIcon>
      {children && (
        <Text ta="center" c="dimmed">
          {children}
        </Text>
      )}
      {action && (
        <Button fullWidth onClick={onAction}>
          {action}
        </Button>
      )}
    </Stack>
  );
}
