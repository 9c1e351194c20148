import { Alert, Loader, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../../../components/confirm-dialog';
import { errorMessage } from '../../../../components/error-text';
import { notify } from '../../../../components/notify';
import { secondFactorMutations, secondFactorQueries } from '../../../../queries/second-factor';
import { securityTexts } from './security-texts';

/**
 * Settings → Security: whether every user of the company must sign in with an authenticator app
 * or a passkey. Admins switch it, after a confirmation saying what it does to the others; anyone
 * else sees how it is set.
 */
export function CompanyPolicyCard({ isAdmin }: { isAdmin: boolean }) {
  const policy = useQuery(secondFactorQueries.policy());
  const save = useMutation(secondFactorMutations.savePolicy());
  const [asked, setAsked] = useState<boolean | null>(null);
  const required = policy.data?.requireStrongSecondFactor ?? false;

  return (
    <Paper withBorder radius="md" shadow="xs" p="lg">
      <Stack gap="md">
        <Title order={2} size="h4">
          Two-step sign-in
        </Title>
        <Text size="sm" c="dimmed">
          Every sign-in needs a second step after the password. By default it is a code sent by
          email; an authenticator app or a passkey is stronger, because it does not depend on the
          mailbox a password reset also goes to.
        </Text>
        {policy.isPending && <Loader size="sm" aria-label="Loading sign-in policy" />}
        {policy.isError && !policy.data && (
          <Alert
            color="red"
            variant="light"
            title={securityTexts.policyFetchError}
            icon={<IconAlertCircle aria-hidden />}
          >
            {errorMessage(policy.error)}
          </Alert>
        )}
        {policy.data && (
          <Switch
            checked={required}
            disabled={!isAdmin}
            onChange={(event) => setAsked(event.currentTarget.checked)}
            label="Require an authenticator app or a passkey for every user"
            description={
              isAdmin
                ? 'Users who have neither are asked to set one up at their next sign-in, and can do nothing else until they have.'
                : "Only your company's Admins can change this."
            }
          />
        )}
      </Stack>
      <ConfirmDialog
        opened={asked !== null}
        title={asked ? 'Require an app or a passkey?' : 'Stop requiring an app or a passkey?'}
        confirmLabel={asked ? 'Require' : 'Stop requiring'}
        confirmColor={asked ? 'blue' : 'red'}
        busyLabel="Saving..."
        errorLead={securityTexts.policyError}
        onConfirm={async () => {
          const { message } = await save.mutateAsync({ requireStrongSecondFactor: asked === true });
          notify(message);
        }}
        onClose={() => setAsked(null)}
      >
        {asked
          ? 'Everyone in your company without an authenticator app or a passkey will have to set one up before they can do anything else, starting with their next request.'
          : 'Users will again be able to sign in with only a code sent by email.'}
      </ConfirmDialog>
    </Paper>
  );
}
