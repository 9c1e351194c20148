import { createFileRoute } from '@tanstack/react-router';
import { PageHeader } from '../../components/page-header';

export const Route = createFileRoute('/_app/teams')({
  component: TeamsPage,
});

// The screen's content comes with its own issue; the route exists so the sidebar lands somewhere.
function TeamsPage() {
  return <PageHeader title="Teams" />;
}
