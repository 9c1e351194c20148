import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { UserDetails } from '../../../../api/contract/users';
import { ConfirmDialog } from '../../../../components/confirm-dialog';
import { notify } from '../../../../components/notify';
import { fullName } from '../../../../components/user-name';
import { sessionMutations } from '../../../../queries/sessions';
import { sessionErrorLeads } from './session-labels';

/** On another user's page, for an Admin: sign the user out everywhere at once. */
export function EndAllSessionsCard({ user }: { user: UserDetails }) {
  const [opened, setOpened] = useState(false);
  const endAll = useMutation(sessionMutations.deleteAll());
  const name = fullName(user);
  return (
    <Paper withBorder radius="md" shadow="xs" p="lg">
      <Group justify="space-between" align="center" gap="md">
        <Stack gap={4}>
          <Title order={3} size="h4">
            Sessions
          </Title>
          <Text size="sm" c="dimmed">
            Sign {name} out of every browser, for instance after a lost laptop or phone.
          </Text>
        </Stack>
        <Button variant="light" color="red" onClick={() => setOpened(true)}>
          End all sessions
        </Button>
      </Group>
      <ConfirmDialog
        opened={opened}
        title={`End all of ${name}’s sessions?`}
        confirmLabel="End all sessions"
        busyLabel="Ending..."
        errorLead={sessionErrorLeads.endAll}
        onConfirm={async () => {
          const { message } = await endAll.mutateAsync(user.id);
          notify(message);
        }}
        onClose={() => setOpened(false)}
      >
        {name} is signed out everywhere at once: their pages, live updates and open consoles stop,
        and they must sign in again. Their API tokens keep working.
      </ConfirmDialog>
    </Paper>
  );
}
