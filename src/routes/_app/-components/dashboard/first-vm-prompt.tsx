import { Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconPlus, IconServer } from '@tabler/icons-react';
import { ButtonLink } from '../../../../components/button-link';

/** In place of a table of dashes, for a company with no VM yet: what to do first. */
export function FirstVmPrompt() {
  return (
    <Paper withBorder radius="md" shadow="xs" p="xl">
      <Stack align="center" gap="sm" ta="center" py="md">
        <ThemeIcon variant="light" size={52} radius="xl">
          <IconServer size={28} aria-hidden />
        </ThemeIcon>
        <Title order={3}>Create your first virtual machine</Title>
        <Text c="dimmed" size="sm" maw={480}>
          Choose a region, an image and a size: it runs within minutes, with a public IP address if
          you want one.
        </Text>
        <ButtonLink
          to="/createVirtualMachine"
          mt="xs"
          leftSection={<IconPlus size={16} aria-hidden />}
        >
          Create Virtual Machine
        </ButtonLink>
      </Stack>
    </Paper>
  );
}
