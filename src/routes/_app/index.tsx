import { Tabs } from '@mantine/core';
import { IconChartBar, IconHistory, IconShoppingCart, IconUsersGroup } from '@tabler/icons-react';
import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { useCallback } from 'react';
import { z } from '../../api/contract/zod';
import {
  activityActorTypes,
  activityOutcomes,
  activitySubjectTypes,
} from '../../api/contract/search-values';
import { tableSearchSchema } from '../../components/data-table/table-search';
import { PageHeader } from '../../components/page-header';
import { teamsListQuery, type TeamsTableState } from '../../components/teams-list-query';
import { TeamsTable } from '../../components/teams-table';
import { authQueries } from '../../queries/auth';
import { dashboardQueries } from '../../queries/dashboard';
import { teamQueries } from '../../queries/teams';
import { catalogQueries } from '../../queries/vms';
import { CompanyActivity, type ActivityFilters } from './-components/activity/company-activity';
import { DashboardFigures } from './-components/dashboard/dashboard-figures';
import { UsagePanel } from './-components/dashboard/usage-panel';

const dashboardTabs = ['usage', 'teams', 'activity'] as const;
type DashboardTab = (typeof dashboardTabs)[number];

const isoDay = z.catch(z.optional(z.iso.date()), undefined);

// The open tab and the list state of that tab (a link to a filtered tab opens it as it was).
const dashboardSearch = z.extend(
  z.pick(tableSearchSchema(['name'], 'name.asc'), { page: true, search: true }),
  {
    tab: z._default(z.catch(z.enum(dashboardTabs), 'usage'), 'usage'),
    // The Activity tab's filters.
    subjectType: z.catch(z.optional(z.enum(activitySubjectTypes)), undefined),
    actorType: z.catch(z.optional(z.enum(activityActorTypes)), undefined),
    outcome: z.catch(z.optional(z.enum(activityOutcomes)), undefined),
    from: isoDay,
    to: isoDay,
  },
);

export const Route = createFileRoute('/_app/')({
  validateSearch: dashboardSearch,
  search: { middlewares: [stripSearchParams({ tab: 'usage', page: 1, search: '' })] },
  loaderDeps: ({ search }) => search,
  // Prefetch on arrival without waiting: each table shows its spinner, or its error, itself.
  loader: ({ context: { queryClient }, deps, cause }) => {
    if (cause === 'stay') return;
    // The figures above the tabs, whichever is open (the VM Usage tab reads them too).
    void queryClient.prefetchQuery(dashboardQueries.summary());
    if (deps.tab === 'usage') {
      void queryClient.prefetchQuery(dashboardQueries.usage());
      void queryClient.prefetchQuery(catalogQueries.configurations());
    } else if (deps.tab === 'teams') {
      void queryClient.prefetchQuery(teamQueries.list(teamsListQuery(deps)));
    }
  },
  component: DashboardPage,
});

function DashboardPage() {
  const { tab: asked, page, search, ...activityFilters } = Route.useSearch();
  const navigate = Route.useNavigate();
  const { data: auth } = useSuspenseQuery(authQueries.check());
  // The company's history is for Admins: anyone else asking for it sees the usage.
  const tab = asked === 'activity' && !auth.user.isAdmin ? 'usage' : asked;

  const updateTeams = useCallback(
    (patch: Partial<TeamsTableState>, { replace }: { replace: boolean }) =>
      void navigate({ search: (prev) => ({ ...prev, ...patch }), replace }),
    [navigate],
  );
  const updateActivity = useCallback(
    (patch: Partial<ActivityFilters>, { replace }: { replace: boolean }) =>
      void navigate({ search: (prev) => ({ ...prev, ...patch }), replace }),
    [navigate],
  );

  return (
    <>
      <PageHeader
        title="Dashboard"
        action={
          auth.user.isReseller
            ? {
                name: 'Order Services',
                icon: <IconShoppingCart size={16} aria-hidden />,
                onClick: () => void navigate({ to: '/orderServices' }),
              }
            : undefined
        }
      />
      <DashboardFigures />
      <Tabs
        value={tab}
        // Each tab keeps its own list state: switching starts the other one afresh.
        onChange={(next) =>
          void navigate({ search: { tab: (next ?? 'usage') as DashboardTab, page: 1, search: '' } })
        }
        keepMounted={false}
      >
        <Tabs.List mb="md">
          <Tabs.Tab value="usage" leftSection={<IconChartBar size={16} aria-hidden />}>
            VM Usage
          </Tabs.Tab>
          <Tabs.Tab value="teams" leftSection={<IconUsersGroup size={16} aria-hidden />}>
            Teams
          </Tabs.Tab>
          {auth.user.isAdmin && (
            <Tabs.Tab value="activity" leftSection={<IconHistory size={16} aria-hidden />}>
              Activity
            </Tabs.Tab>
          )}
        </Tabs.List>
        <Tabs.Panel value="usage">
          <UsagePanel
            search={search}
            onSearchChange={(text) =>
              void navigate({ search: (prev) => ({ ...prev, search: text }), replace: true })
            }
          />
        </Tabs.Panel>
        <Tabs.Panel value="teams">
          <TeamsTable state={{ page, search }} onStateChange={updateTeams} />
        </Tabs.Panel>
        {auth.user.isAdmin && (
          <Tabs.Panel value="activity">
            <CompanyActivity
              filters={{ page, search, ...activityFilters }}
              onChange={updateActivity}
            />
          </Tabs.Panel>
        )}
      </Tabs>
    </>
  );
}
