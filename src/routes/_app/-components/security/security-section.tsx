import { Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { AuthenticatorAppCard } from './authenticator-app-card';

/**
 * Profile → Security, on the signed-in user's own page: the authenticator app, and beside it the
 * passkeys (`children`, the passkeys card).
 */
export function SecuritySection({ children }: { children?: ReactNode }) {
  return (
    <Stack gap="md" component="section" aria-labelledby="security-title">
      <Title order={2} size="h3" id="security-title">
        Security
      </Title>
      <AuthenticatorAppCard />
      {children}
    </Stack>
  );
}
