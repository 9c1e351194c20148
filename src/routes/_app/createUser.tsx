import { createFileRoute } from '@tanstack/react-router';
import { roleQueries } from '../../queries/roles';
import { ALL_TEAMS, teamQueries } from '../../queries/teams';
import { AddUserScreen } from './-components/users/add-user-screen';

export const Route = createFileRoute('/_app/createUser')({
  // Start both dropdowns' lists at once; the fields show their own loading state meanwhile.
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(roleQueries.list());
    void context.queryClient.prefetchQuery(teamQueries.list(ALL_TEAMS));
  },
  component: AddUserScreen,
});
