import { createFileRoute } from '@tanstack/react-router';
import { roleQueries } from '../../queries/roles';
import { teamQueries } from '../../queries/teams';
import { ALL_TEAMS, AddUserScreen } from './-components/add-user-screen';

export const Route = createFileRoute('/_app/createUser')({
  // Start both dropdowns' lists at once; the fields show their own loading state meanwhile.
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(roleQueries.list());
    void context.queryClient.prefetchQuery(teamQueries.list(ALL_TEAMS));
  },
  component: AddUserScreen,
});
