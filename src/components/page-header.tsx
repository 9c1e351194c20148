import { ActionIcon, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useRouter } from '@tanstack/react-router';
import type { ReactNode } from 'react';

export interface PageAction {
  name: string;
  onClick: () => void;
  icon?: ReactNode;
  disabled?: boolean;
}

interface PageHeaderProps {
  title: string;
  /** Shows the back arrow; with no onBack it goes back in history. */
  withBack?: boolean;
  onBack?: () => void;
  secondaryTitle?: ReactNode;
  /** Drawn before the title, such as a company's logo. */
  leading?: ReactNode;
  /** Drawn after the title, outside the heading, such as a state badge. */
  trailing?: ReactNode;
  action?: PageAction;
}

/** The title row of every protected page (spec section 1, shared layout). */
export function PageHeader({
  title,
  withBack,
  onBack,
  secondaryTitle,
  leading,
  trailing,
  action,
}: PageHeaderProps) {
  const router = useRouter();
  const showBack = withBack || !!onBack;
  return (
    // The action stays beside a title that fits on one line with it, and moves under one that
    // does not, which then wraps across the whole width: on a phone nothing is cut or squeezed.
    <Group justify="space-between" align="center" mb="lg" gap="sm" wrap="wrap">
      <Group gap="sm" wrap="nowrap" miw={0} style={{ flex: '1 1 auto' }}>
        {showBack && (
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label="Go back"
            onClick={onBack ?? (() => router.history.back())}
          >
            <IconArrowLeft size={20} aria-hidden />
          </ActionIcon>
        )}
        {leading}
        <Stack gap={0} miw={0}>
          <Title order={2} fz={{ base: 22, sm: 26 }} style={{ overflowWrap: 'anywhere' }}>
            {title}
          </Title>
          {secondaryTitle && (
            <Text c="dimmed" size="sm">
              {secondaryTitle}
            </Text>
          )}
        </Stack>
        {trailing}
      </Group>
      {action && (
        <Button
          onClick={action.onClick}
          leftSection={action.icon}
          disabled={action.disabled}
          style={{ flexShrink: 0 }}
        >
          {action.name}
        </Button>
      )}
    </Group>
  );
}
