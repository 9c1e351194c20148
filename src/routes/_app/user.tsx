import { Alert, Center, Loader, Stack } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { z } from '../../api/contract/zod';
import { ApiError } from '../../api/client';
import { userMessages } from '../../api/contract/users';
import { errorMessage, managementErrorLeads } from '../../components/error-text';
import { PageHeader } from '../../components/page-header';
import { fullName } from '../../components/user-name';
import { authQueries } from '../../queries/auth';
import { roleQueries } from '../../queries/roles';
import { userQueries } from '../../queries/users';
import { apiTokenQueries } from '../../queries/api-tokens';
import { ApiTokensSection } from './-components/api-tokens/api-tokens-section';
import { apiTokensQuery, canSeeApiTokens } from './-components/api-tokens/api-tokens-query';
import { EndAllSessionsCard } from './-components/sessions/end-all-sessions-card';
import { PasskeysCard } from './-components/passkeys/passkeys-card';
import { SecuritySection } from './-components/security/security-section';
import { SessionsSection } from './-components/sessions/sessions-section';
import { SshKeysSection } from './-components/ssh-keys/ssh-keys-section';
import { UserDetailsCard } from './-components/users/user-details-card';
import { membershipsQuery } from './-components/users/memberships-query';
import { UserMemberships } from './-components/users/user-memberships';
import { useGoBackToUsers } from '../../components/use-go-back';

/**
 * `/user?id=7&search=ops&page=2`: the user, and the search and page of their team memberships. A
 * missing or malformed id falls back to 0, which names no user.
 */
const userSearch = z.object({
  id: z.catch(z.int().check(z.nonnegative()), 0),
  page: z._default(z.catch(z.coerce.number().check(z.int(), z.gte(1)), 1), 1),
  // The router parses `?search=123` as a number; the text typed is what counts.
  search: z._default(z.catch(z.coerce.string().check(z.maxLength(200)), ''), ''),
});

export const Route = createFileRoute('/_app/user')({
  validateSearch: userSearch,
  search: { middlewares: [stripSearchParams({ page: 1, search: '' })] },
  loaderDeps: ({ search }) => search,
  // The page is about one user: it waits for them. A user who cannot be loaded (not found, another
  // company's) is this page's message rather than a thrown route error: nothing went wrong in the
  // console. The memberships and roles load meanwhile and show their own spinners.
  loader: async ({ context: { queryClient }, deps }) => {
    if (deps.id === 0) return { loadError: new ApiError(404, userMessages.notFound) };
    try {
      await queryClient.ensureQueryData(userQueries.detail(deps.id));
    } catch (loadError) {
      return { loadError };
    }
    void queryClient.prefetchQuery(userQueries.teams(deps.id, membershipsQuery(deps)));
    void queryClient.prefetchQuery(roleQueries.list());
    // The layout has checked the session before this loader runs.
    const me = queryClient.getQueryData(authQueries.check().queryKey)?.user;
    if (me && canSeeApiTokens(me, deps.id)) {
      void queryClient.prefetchQuery(
        apiTokenQueries.list(apiTokensQuery(deps.id, me.id === deps.id)),
      );
    }
    return { loadError: null };
  },
  pendingComponent: () => (
    <Center py="xl">
      <Loader size="sm" aria-label="Loading user" />
    </Center>
  ),
  component: UserPage,
});

function UserPage() {
  const { loadError } = Route.useLoaderData();
  return loadError ? <UserLoadError error={loadError} /> : <UserScreen />;
}

function UserScreen() {
  const { id, page, search } = Route.useSearch();
  const navigate = Route.useNavigate();
  const goBack = useGoBackToUsers();
  const { data: user } = useSuspenseQuery(userQueries.detail(id));
  const { data: session } = useSuspenseQuery(authQueries.check());
  const me = session.user;

  return (
    <>
      <PageHeader title={fullName(user)} withBack onBack={goBack} />
      <Stack gap="lg">
        {/* Keyed: another user's page starts from their names, not from what was typed here. */}
        <UserDetailsCard key={user.id} user={user} canEdit={me.id === user.id || me.isAdmin} />
        <UserMemberships
          user={user}
          canManage={me.isAdmin}
          page={page}
          search={search}
          onSearchParams={(patch, { replace }) =>
            void navigate({ search: (prev) => ({ ...prev, ...patch }), replace })
          }
        />
        {/* Nobody else sees a user's SSH keys, an Admin included. */}
        {me.id === user.id && <SshKeysSection />}
        {/* The user's own, or an Admin's view; nobody else sees that a user has tokens. */}
        {canSeeApiTokens(me, user.id) && (
          <ApiTokensSection key={`tokens-${user.id}`} user={user} own={me.id === user.id} />
        )}
        {me.id === user.id && (
          <SecuritySection>
            <PasskeysCard />
          </SecuritySection>
        )}
        {me.id === user.id && <SessionsSection />}
        {me.isAdmin && me.id !== user.id && (
          <EndAllSessionsCard key={`sessions-${user.id}`} user={user} />
        )}
      </Stack>
    </>
  );
}

function UserLoadError({ error }: { error: unknown }) {
  const goBack = useGoBackToUsers();
  return (
    <>
      <PageHeader title="User" withBack onBack={goBack} />
      <Alert
        color="red"
        variant="light"
        title={managementErrorLeads.fetchUser}
        icon={<IconAlertCircle aria-hidden />}
      >
        {errorMessage(error)}
      </Alert>
    </>
  );
}
