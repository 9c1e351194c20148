import { Button, Center, Loader, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconLayoutDashboard, IconMapQuestion } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation } from '@tanstack/react-router';
import { AuthCard } from '../../components/auth-card';
import { ButtonLink } from '../../components/button-link';
import { authQueries } from '../../queries/auth';
import { SignedInLayout } from './signed-in-layout';

const TITLE = 'Page not found';

/** What happened, naming the address that led nowhere as the user typed or followed it. */
function WhatHappened() {
  const pathname = useLocation({ select: (location) => location.pathname });
  return (
    <>
      There is no page at{' '}
      <Text span fw={600} c="dark.6" style={{ overflowWrap: 'anywhere' }}>
        {pathname}
      </Text>
      . The link may be out of date, or the address mistyped.
    </>
  );
}

/**
 * Inside the signed-in layout: what happened and the way to the dashboard. The `_app` layout's
 * not-found component, for an address under a signed-in screen (`/virtualMachineDetails/5/oops`).
 */
export function NotFoundPage() {
  return (
    <Paper withBorder radius="md" shadow="xs" p="xl" maw={560} mx="auto" mt="xl">
      <Stack align="center" gap="sm" ta="center">
        <ThemeIcon variant="light" size={48} radius="xl">
          <IconMapQuestion size={26} aria-hidden />
        </ThemeIcon>
        <Title order={2}>{TITLE}</Title>
        <Text c="dimmed">
          <WhatHappened />
        </Text>
        <ButtonLink to="/" mt="xs" leftSection={<IconLayoutDashboard size={16} aria-hidden />}>
          Go to Dashboard
        </ButtonLink>
      </Stack>
    </Paper>
  );
}

/**
 * An address no route matches at all (`/doesNotExist`), the root's not-found component: a
 * signed-in user gets the page inside the signed-in layout, sidebar and all; anyone else a card
 * like the sign-in ones, with the way to sign in. Loaded only when needed (`__root.tsx`).
 */
export function NotFoundScreen() {
  const auth = useQuery(authQueries.check());
  if (auth.isPending)
    return (
      <Center mih="100dvh">
        <Loader size="sm" aria-label="Loading" />
      </Center>
    );
  if (auth.data)
    return (
      <SignedInLayout user={auth.data.user}>
        <NotFoundPage />
      </SignedInLayout>
    );
  return (
    <AuthCard title={TITLE}>
      <Stack gap="lg">
        <Text size="sm" c="dimmed" ta="center">
          <WhatHappened />
        </Text>
        <Button component={Link} to="/login" fullWidth>
          Go to Login
        </Button>
      </Stack>
    </AuthCard>
  );
}
