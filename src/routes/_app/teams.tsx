import { z } from '../../api/contract/zod';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { useCallback } from 'react';
import { tableSearchSchema } from '../../components/data-table/table-search';
import { PageHeader } from '../../components/page-header';
import { teamsListQuery, type TeamsTableState } from '../../components/teams-list-query';
import { TeamsTable } from '../../components/teams-table';
import { authQueries } from '../../queries/auth';
import { teamQueries } from '../../queries/teams';

// The teams API takes no sort: the shared list schema without it.
const teamsSearch = z.pick(tableSearchSchema(['name'], 'name.asc'), { page: true, search: true });

export const Route = createFileRoute('/_app/teams')({
  validateSearch: teamsSearch,
  search: { middlewares: [stripSearchParams({ page: 1, search: '' })] },
  loaderDeps: ({ search }) => search,
  // Prefetch on arrival only (without waiting: the table shows its spinner, or its error). Page and
  // search changes on the screen load after the table's delay instead.
  loader: ({ context, deps, cause }) => {
    if (cause !== 'stay')
      void context.queryClient.prefetchQuery(teamQueries.list(teamsListQuery(deps)));
  },
  component: TeamsPage,
});

function TeamsPage() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const { data: auth } = useQuery(authQueries.check());
  const update = useCallback(
    (patch: Partial<TeamsTableState>, { replace }: { replace: boolean }) =>
      void navigate({ search: (prev) => ({ ...prev, ...patch }), replace }),
    [navigate],
  );

  return (
    <>
      <PageHeader
        title="Teams"
        // Only Admins create teams; the server refuses anybody else.
        action={
          auth?.user.isAdmin
            ? {
                name: 'Create Team',
                icon: <IconPlus size={16} aria-hidden />,
                onClick: () => void navigate({ to: '/createEditTeam' }),
              }
            : undefined
        }
      />
      <TeamsTable state={search} onStateChange={update} />
    </>
  );
}
