import { Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { ButtonLink } from '../../../../components/button-link';

/** Spec section 2: what an unknown network id (or another company's) shows. */
export function NetworkNotFound() {
  return (
    <Paper withBorder radius="md" shadow="xs" p="xl" maw={560} mx="auto" mt="xl">
      <Stack align="center" gap="sm">
        <Title order={2}>Network Not Found</Title>
        <Text c="dimmed">The requested network could not be found.</Text>
        <ButtonLink
          to="/networks"
          variant="light"
          leftSection={<IconArrowLeft size={16} aria-hidden />}
        >
          Back to Networks
        </ButtonLink>
      </Stack>
    </Paper>
  );
}
