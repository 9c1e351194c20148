import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { PageHeader } from '../../components/page-header';

/** `/user?id=7`; a missing or malformed id falls back to 0, which names no user. */
const userSearch = z.object({
  id: z.number().int().nonnegative().catch(0),
});

export const Route = createFileRoute('/_app/user')({
  validateSearch: userSearch,
  component: UserPage,
});

// The user page's content (names, memberships) comes with its own issue.
function UserPage() {
  return <PageHeader title="User" />;
}
