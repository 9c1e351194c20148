import { Alert, Center, Loader, Stepper } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, useRouter } from '@tanstack/react-router';
import { useState } from 'react';
import { z } from '../../api/contract/zod';
import { managementErrorLeads } from '../../components/error-text';
import { PageHeader } from '../../components/page-header';
import { roleQueries } from '../../queries/roles';
import { teamQueries } from '../../queries/teams';
import { TeamBuildStep } from './-components/teams/team-build-step';
import { TeamNameStep } from './-components/teams/team-name-step';
import { TeamPermissionsStep } from './-components/teams/team-permissions-step';
import { FIRST_MEMBERS_PAGE } from './-components/teams/team-wizard';
import { permissionMessages, roleAllows } from '../../api/contract/permissions';

/** `/createEditTeam` creates; `/createEditTeam?id=7` edits team 7. */
const createEditTeamSearch = z.object({
  id: z.catch(z.optional(z.int().check(z.positive())), undefined),
});

export const Route = createFileRoute('/_app/createEditTeam')({
  validateSearch: createEditTeamSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => {
    void context.queryClient.prefetchQuery(roleQueries.list());
    if (deps.id) {
      void context.queryClient.prefetchQuery(teamQueries.detail(deps.id, FIRST_MEMBERS_PAGE));
    }
  },
  component: CreateEditTeamPage,
});

/** The wizard's pages; component state, not the URL (spec: internal pages). */
type Step = 'teamName' | 'build' | 'setPermissions';
const STEPS: Step[] = ['teamName', 'build', 'setPermissions'];
const STEP_LABELS = [
  ['Name', 'Team details'],
  ['Members', 'Who is in the team'],
  ['Permissions', 'Their roles'],
] as const;

function CreateEditTeamPage() {
  const { id } = Route.useSearch();
  const navigate = Route.useNavigate();
  const router = useRouter();
  const [step, setStep] = useState<Step>('teamName');
  // A team that existed when the page opened is left for its team page; one created here is not.
  const [existedAtOpen] = useState(id !== undefined);
  const team = useQuery({ ...teamQueries.detail(id ?? 0, FIRST_MEMBERS_PAGE), enabled: !!id });

  const title = !id ? 'Create Team' : team.data ? `Edit ${team.data.teamName}` : 'Edit Team';
  const toTeamPage = (teamId: number) => navigate({ to: '/team', search: { id: teamId } });

  const back = () => {
    if (step === 'setPermissions') setStep('build');
    else if (existedAtOpen && id) void toTeamPage(id);
    else if (step === 'build') setStep('teamName');
    else if (router.history.canGoBack()) router.history.back();
    else void navigate({ to: '/teams' });
  };

  let content;
  if (id && !team.data && team.error) {
    content = (
      <Alert
        color="red"
        variant="light"
        title={managementErrorLeads.fetchTeam}
        icon={<IconAlertCircle aria-hidden />}
      >
        {team.error.message}
      </Alert>
    );
  } else if (
    team.data &&
    !roleAllows(team.data.yourRoleId, 'team.rename') &&
    !roleAllows(team.data.yourRoleId, 'team.members')
  ) {
    // Opened by address by a member whose role may not change the team.
    content = (
      <Alert color="yellow" variant="light" icon={<IconAlertCircle aria-hidden />}>
        {permissionMessages.forbidden}
      </Alert>
    );
  } else if (id && !team.data) {
    content = (
      <Center py="xl">
        <Loader size="sm" aria-label="Loading team" />
      </Center>
    );
  } else if (step === 'teamName' || !id) {
    content = (
      <TeamNameStep
        teamId={id}
        savedName={team.data?.teamName}
        onDone={async (teamId) => {
          // The new team's id goes into the URL (replacing it: Back must not create again).
          if (teamId !== id) await navigate({ search: { id: teamId }, replace: true });
          setStep('build');
        }}
      />
    );
  } else if (step === 'build') {
    content = (
      <TeamBuildStep
        teamId={id}
        onBack={() => setStep('teamName')}
        onNext={() => setStep('setPermissions')}
      />
    );
  } else {
    content = (
      <TeamPermissionsStep
        teamId={id}
        onBack={() => setStep('build')}
        onSaved={() => void toTeamPage(id)}
      />
    );
  }

  return (
    <>
      <PageHeader title={title} onBack={back} />
      {/* Where the wizard stands; the steps are not links (Back and Next move between them). */}
      <Stepper active={STEPS.indexOf(step)} size="sm" mb="lg">
        {STEP_LABELS.map(([label, description], index) => (
          <Stepper.Step
            key={label}
            component="div"
            label={label}
            description={description}
            aria-current={index === STEPS.indexOf(step) ? 'step' : undefined}
          />
        ))}
      </Stepper>
      {content}
    </>
  );
}
