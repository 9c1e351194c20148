import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { PageHeader } from '../../components/page-header';

/** `/createEditTeam` creates; `/createEditTeam?id=7` edits team 7. */
const createEditTeamSearch = z.object({
  id: z.number().int().positive().optional().catch(undefined),
});

export const Route = createFileRoute('/_app/createEditTeam')({
  validateSearch: createEditTeamSearch,
  component: CreateEditTeamPage,
});

function CreateEditTeamPage() {
  return <PageHeader title="Create Team" />;
}
