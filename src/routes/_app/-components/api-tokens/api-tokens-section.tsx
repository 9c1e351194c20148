import { Button, Group, Modal } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { ApiToken } from '../../../../api/contract/api-tokens';
import type { UserDetails } from '../../../../api/contract/users';
import { ConfirmDialog } from '../../../../components/confirm-dialog';
import { DataTable } from '../../../../components/data-table/data-table';
import { notify } from '../../../../components/notify';
import { fullName } from '../../../../components/user-name';
import { apiTokenMutations, apiTokenQueries } from '../../../../queries/api-tokens';
import { apiTokenColumns } from './api-token-columns';
import { apiTokenErrorLeads } from './api-token-labels';
import { ApiTokenSecretDialog } from './api-token-secret-dialog';
import { apiTokensQuery } from './api-tokens-query';
import { CreateApiTokenForm, type CreatedApiToken } from './create-api-token-form';
import { RevokeApiTokenDialog } from './revoke-api-token-dialog';

interface ApiTokensSectionProps {
  user: UserDetails;
  /**
   * The signed-in user's own page: they make tokens here. Otherwise an Admin looks at somebody
   * else's, and may only revoke them.
   */
  own: boolean;
}

/** A user's personal API tokens: the list, making one (own page), revoking one or all. */
export function ApiTokensSection({ user, own }: ApiTokensSectionProps) {
  const tokens = useQuery(apiTokenQueries.list(apiTokensQuery(user.id, own)));
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  // The target outlives `opened` so the title does not go blank while the dialog fades out.
  const [target, setTarget] = useState<ApiToken | null>(null);
  const [revokeOpened, setRevokeOpened] = useState(false);
  const [revokeAllOpened, setRevokeAllOpened] = useState(false);
  const revokeAll = useMutation(apiTokenMutations.revokeAll());

  // Whether a token has expired is judged as of the list's answer (rows exist only with one).
  const dataUpdatedAt = tokens.dataUpdatedAt;
  const columns = useMemo(
    () =>
      apiTokenColumns(new Date(dataUpdatedAt), (token) => {
        setTarget(token);
        setRevokeOpened(true);
      }),
    [dataUpdatedAt],
  );
  const count = tokens.data?.length ?? 0;
  const owner = own ? 'your' : `${fullName(user)}’s`;
  const revokedTokens =
    count === 1
      ? `${own ? 'Your' : owner} API token stops`
      : `All ${count} of ${owner} API tokens stop`;

  return (
    <>
      <DataTable
        title="API tokens"
        description={
          own
            ? 'Let scripts and tools such as the launchpad CLI call the API as you.'
            : `Tokens that let ${fullName(user)}’s scripts and tools call the API as them.`
        }
        columns={columns}
        data={tokens.data}
        getRowId={(row) => String(row.id)}
        isPending={tokens.isPending}
        isFetching={tokens.isFetching}
        // Rows already shown stay on a failed refresh (the query cache toasts it).
        error={tokens.data ? null : tokens.error}
        errorTitle={apiTokenErrorLeads.fetch}
        onRefresh={() => void tokens.refetch()}
        emptyMessage={
          own
            ? 'No API tokens yet. Create one to let a script or the launchpad CLI use the API as you.'
            : 'No API tokens yet.'
        }
        toolbar={
          <Group gap="xs" wrap="nowrap">
            {count > 0 && (
              <Button variant="light" color="red" onClick={() => setRevokeAllOpened(true)}>
                Revoke all
              </Button>
            )}
            {own && (
              <Button
                leftSection={<IconPlus size={16} aria-hidden />}
                onClick={() => setCreating(true)}
              >
                Create token
              </Button>
            )}
          </Group>
        }
      />

      <Modal
        opened={creating}
        onClose={() => setCreating(false)}
        title="Create API token"
        centered
        closeOnClickOutside={false}
      >
        <CreateApiTokenForm
          onCreated={(result) => {
            setCreating(false);
            setCreated(result);
          }}
          onCancel={() => setCreating(false)}
        />
      </Modal>
      <ApiTokenSecretDialog created={created} onClose={() => setCreated(null)} />

      <RevokeApiTokenDialog
        token={target}
        opened={revokeOpened}
        onClose={() => setRevokeOpened(false)}
      />
      <ConfirmDialog
        opened={revokeAllOpened}
        title="Revoke all API tokens?"
        confirmLabel="Revoke all"
        busyLabel="Revoking..."
        errorLead={apiTokenErrorLeads.revokeAll}
        onConfirm={async () => {
          const { message } = await revokeAll.mutateAsync(own ? {} : { userId: user.id });
          notify(message);
        }}
        onClose={() => setRevokeAllOpened(false)}
      >
        {revokedTokens} working at once: every script and tool using them is refused from now on.
        This cannot be undone.
      </ConfirmDialog>
    </>
  );
}
