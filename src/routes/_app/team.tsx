import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { PageHeader } from '../../components/page-header';

/** `/team?id=7`; a missing or malformed id falls back to 0, which names no team. */
const teamSearch = z.object({ id: z.number().int().nonnegative().catch(0) });

export const Route = createFileRoute('/_app/team')({
  validateSearch: teamSearch,
  component: TeamPage,
});

function TeamPage() {
  return <PageHeader title="Team" />;
}
