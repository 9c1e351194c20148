import { Tabs } from '@mantine/core';
import { IconBuildingStore, IconKey, IconShieldLock, IconWebhook } from '@tabler/icons-react';
import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { z } from '../../api/contract/zod';
import { AnchorLink } from '../../components/anchor-link';
import { appTitle } from '../../components/app-title';
import { PageHeader } from '../../components/page-header';
import { apiTokenQueries } from '../../queries/api-tokens';
import { authQueries } from '../../queries/auth';
import { resellerSettingsQueries } from '../../queries/reseller-settings';
import { secondFactorQueries } from '../../queries/second-factor';
import { webhookQueries } from '../../queries/webhooks';
import { COMPANY_API_TOKENS } from './-components/api-tokens/api-tokens-query';
import { CompanyApiTokens } from './-components/api-tokens/company-api-tokens';
import { CompanyPolicyCard } from './-components/security/company-policy-card';
import { AdminsOnlyNotice } from './-components/settings/admins-only-notice';
import { ResellerSettingsSection } from './-components/settings/reseller-settings-section';
import { webhookTexts } from './-components/webhooks/webhook-labels';
import { WebhooksSection } from './-components/webhooks/webhooks-section';

const settingsTabs = ['webhooks', 'apiTokens', 'security', 'reseller'] as const;
type SettingsTab = (typeof settingsTabs)[number];

/**
 * `/settings?tab=apiTokens`: the open tab; anything else opens Webhooks, as does `reseller` for
 * anyone but a reseller's staff.
 */
const settingsSearch = z.object({
  tab: z._default(z.catch(z.enum(settingsTabs), 'webhooks'), 'webhooks'),
});

export const Route = createFileRoute('/_app/settings')({
  validateSearch: settingsSearch,
  search: { middlewares: [stripSearchParams({ tab: 'webhooks' })] },
  loaderDeps: ({ search }) => ({ tab: search.tab }),
  // Prefetch without waiting: each table shows its spinner, or its error, itself. Both lists are
  // the company's, for Admins: anybody else would be refused, so nothing is asked for them. The
  // reseller's settings are for all its staff (only its Admins change them).
  loader: ({ context: { queryClient }, deps, cause }) => {
    if (cause === 'stay') return;
    // The layout has checked the session before this loader runs.
    const me = queryClient.getQueryData(authQueries.check().queryKey)?.user;
    if (deps.tab === 'reseller') {
      if (me?.isReseller) void queryClient.prefetchQuery(resellerSettingsQueries.detail());
      return;
    }
    if (deps.tab === 'security') {
      void queryClient.prefetchQuery(secondFactorQueries.policy());
      return;
    }
    if (!me?.isAdmin) return;
    if (deps.tab === 'webhooks') void queryClient.prefetchQuery(webhookQueries.list());
    else void queryClient.prefetchQuery(apiTokenQueries.list(COMPANY_API_TOKENS));
  },
  component: SettingsPage,
});

function SettingsPage() {
  const { tab: asked } = Route.useSearch();
  const navigate = Route.useNavigate();
  const {
    data: { user },
  } = useSuspenseQuery(authQueries.check());
  // The reseller's settings are its staff's: anyone else asking for them sees the default tab.
  const tab = asked === 'reseller' && !user.isReseller ? 'webhooks' : asked;

  return (
    <>
      <PageHeader
        title="Settings"
        secondaryTitle={`Connect other systems to ${appTitle(user.resellerName)}`}
      />
      <Tabs
        value={tab}
        onChange={(next) => void navigate({ search: { tab: (next ?? 'webhooks') as SettingsTab } })}
        keepMounted={false}
      >
        <Tabs.List mb="md">
          <Tabs.Tab value="webhooks" leftSection={<IconWebhook size={16} aria-hidden />}>
            Webhooks
          </Tabs.Tab>
          <Tabs.Tab value="apiTokens" leftSection={<IconKey size={16} aria-hidden />}>
            API tokens
          </Tabs.Tab>
          <Tabs.Tab value="security" leftSection={<IconShieldLock size={16} aria-hidden />}>
            Security
          </Tabs.Tab>
          {user.isReseller && (
            <Tabs.Tab value="reseller" leftSection={<IconBuildingStore size={16} aria-hidden />}>
              Reseller
            </Tabs.Tab>
          )}
        </Tabs.List>
        <Tabs.Panel value="webhooks">
          {user.isAdmin ? (
            <WebhooksSection />
          ) : (
            <AdminsOnlyNotice>{webhookTexts.adminsOnly}</AdminsOnlyNotice>
          )}
        </Tabs.Panel>
        <Tabs.Panel value="apiTokens">
          {user.isAdmin ? (
            <CompanyApiTokens />
          ) : (
            <AdminsOnlyNotice>
              {"Only your company's Admins see every API token. Your own tokens are on your "}
              <AnchorLink to="/user" search={{ id: user.id }} inherit>
                Profile
              </AnchorLink>
              .
            </AdminsOnlyNotice>
          )}
        </Tabs.Panel>
        <Tabs.Panel value="security">
          <CompanyPolicyCard isAdmin={user.isAdmin} />
        </Tabs.Panel>
        {user.isReseller && (
          <Tabs.Panel value="reseller">
            <ResellerSettingsSection isAdmin={user.isAdmin} />
          </Tabs.Panel>
        )}
      </Tabs>
    </>
  );
}
