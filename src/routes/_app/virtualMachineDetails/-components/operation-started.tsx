import { Button, Group, Stack, Text } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** A VM dialog's last step once its operation has started: what happens next, and Return. */
export function OperationStarted({
  children,
  onReturn,
}: {
  children: ReactNode;
  onReturn: () => void;
}) {
  return (
    <Stack gap="md">
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <IconCircleCheck color="var(--mantine-color-green-6)" aria-hidden />
        <Text size="sm" role="status">
          {children}
        </Text>
      </Group>
      <Group justify="flex-end">
        <Button onClick={onReturn} data-autofocus>
          Return
        </Button>
      </Group>
    </Stack>
  );
}
