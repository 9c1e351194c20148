import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { ApiToken } from '../../../../api/contract/api-tokens';
import { DataTable } from '../../../../components/data-table/data-table';
import { apiTokenQueries } from '../../../../queries/api-tokens';
import { apiTokenColumns } from './api-token-columns';
import { apiTokenErrorLeads } from './api-token-labels';
import { COMPANY_API_TOKENS } from './api-tokens-query';
import { RevokeApiTokenDialog } from './revoke-api-token-dialog';

/** Every API token of the company, whoever made it (Admins): to see them and revoke one. */
export function CompanyApiTokens() {
  const tokens = useQuery(apiTokenQueries.list(COMPANY_API_TOKENS));
  // The target outlives `opened` so the title does not go blank while the dialog fades out.
  const [target, setTarget] = useState<ApiToken | null>(null);
  const [revokeOpened, setRevokeOpened] = useState(false);

  // Whether a token has expired is judged as of the list's answer (rows exist only with one).
  const dataUpdatedAt = tokens.dataUpdatedAt;
  const columns = useMemo(
    () =>
      apiTokenColumns(
        new Date(dataUpdatedAt),
        (token) => {
          setTarget(token);
          setRevokeOpened(true);
        },
        { withOwner: true },
      ),
    [dataUpdatedAt],
  );

  return (
    <>
      <DataTable
        title="API tokens"
        description="Every token of the company, whoever made it. People make their own on their Profile."
        columns={columns}
        data={tokens.data}
        getRowId={(row) => String(row.id)}
        isPending={tokens.isPending}
        isFetching={tokens.isFetching}
        // Rows already shown stay on a failed refresh (the query cache toasts it).
        error={tokens.data ? null : tokens.error}
        errorTitle={apiTokenErrorLeads.fetch}
        onRefresh={() => void tokens.refetch()}
        emptyMessage="Nobody in the company has an API token."
      />
      <RevokeApiTokenDialog
        token={target}
        opened={revokeOpened}
        withOwner
        onClose={() => setRevokeOpened(false)}
      />
    </>
  );
}
