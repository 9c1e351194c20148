import { Anchor, Box, Center, Group, Image, Paper, Stack, Text, Title } from '@mantine/core';
import { IconRocket } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { User } from '../api/contract/auth';
import { sessionStore } from '../api/session-store';
import { APP_TITLE } from './app-title';
import { hostBrand, useBranding } from './branding';

type Brand = Pick<User, 'resellerName' | 'logoUrl' | 'tabLogoUrl'> & { companyName?: string };

/** The brand's logo, else its name, else the product's. */
function Logo({ user }: { user: Brand | undefined }) {
  if (user?.logoUrl)
    return (
      <Image
        src={user.logoUrl}
        alt={user.resellerName || user.companyName || APP_TITLE}
        h={48}
        w="auto"
        maw="100%"
        fit="contain"
      />
    );
  return (
    <Group gap={8} wrap="nowrap" c="indigo.7">
      {!user?.resellerName && <IconRocket size={32} stroke={1.75} aria-hidden />}
      <Text component="span" fz={28} fw={700} lh={1} c="dark.7">
        {user?.resellerName || APP_TITLE}
      </Text>
    </Group>
  );
}

/** The shell of the public identity screens: a logo above a centered card. */
export function AuthCard({
  title,
  children,
  footer,
}: {
  title: ReactNode;
  children: ReactNode;
  /** Under the card body, e.g. a Return to Login link. */
  footer?: ReactNode;
}) {
  // On a reseller's domain, its brand (the server wrote it into the page); else the reseller
  // known from the stored session; else the product.
  const host = hostBrand();
  const user: Brand | undefined = host
    ? { ...host, resellerName: host.name }
    : sessionStore.get()?.user;
  useBranding({ resellerName: user?.resellerName ?? null, tabLogoUrl: user?.tabLogoUrl ?? null });
  return (
    <Center component="main" mih="100dvh" px="md" py={48} bg="gray.0">
      <Stack w="100%" maw={440} gap="xl" align="center">
        <Logo user={user} />
        <Paper w="100%" withBorder shadow="sm" radius="lg" p={{ base: 'lg', xs: 32 }}>
          <Stack gap="lg">
            <Title order={1} fz={24} fw={650} ta="center">
              {title}
            </Title>
            {children}
            {footer && <Box ta="center">{footer}</Box>}
          </Stack>
        </Paper>
      </Stack>
    </Center>
  );
}

/** The way back to the start, shown under most public screens. */
export function ReturnToLogin() {
  return (
    <Anchor component={Link} to="/login" size="sm">
      Return to Login
    </Anchor>
  );
}
