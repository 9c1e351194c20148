import { Anchor, Button, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { TotpEnrolment } from './totp-enrolment';

/**
 * Where a user is held until they have a strong second factor: the authenticator app's set-up
 * (and a passkey's registration, as `passkey`). Nothing else of the console is reachable; signing
 * out is.
 */
export function EnrolmentScreen({
  onEnrolled,
  passkey,
}: {
  onEnrolled: () => void;
  /** Registering a passkey instead; it calls `onEnrolled` once one is saved. */
  passkey?: ReactNode;
}) {
  const [settingUpApp, setSettingUpApp] = useState(false);
  return (
    <Center component="main" mih="100dvh" px="md" py={48} bg="gray.0">
      <Paper w="100%" maw={480} withBorder shadow="sm" radius="lg" p={{ base: 'lg', xs: 32 }}>
        <Stack gap="lg">
          <Stack gap="xs" align="center">
            <IconShieldLock size={36} aria-hidden />
            <Title order={1} fz={24} fw={650} ta="center">
              Set up two-step sign-in
            </Title>
            <Text size="sm" c="dimmed" ta="center">
              Your company requires an authenticator app or a passkey for every sign-in. Set one up
              to continue.
            </Text>
          </Stack>
          {settingUpApp ? (
            <TotpEnrolment onFinished={onEnrolled} />
          ) : (
            <Stack gap="sm">
              <Button onClick={() => setSettingUpApp(true)}>Set up authenticator app</Button>
              {passkey}
            </Stack>
          )}
          <Center>
            <Anchor component={Link} to="/logout" size="sm">
              Sign out
            </Anchor>
          </Center>
        </Stack>
      </Paper>
    </Center>
  );
}
