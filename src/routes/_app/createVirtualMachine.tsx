import { createFileRoute } from '@tanstack/react-router';
import { ALL_TEAMS, teamQueries } from '../../queries/teams';
import { catalogQueries } from '../../queries/vms';
import { CreateVmScreen } from './-components/vms/create-vm-screen';

export const Route = createFileRoute('/_app/createVirtualMachine')({
  // The first list of the cascade, and the teams; the fields show their own loading state.
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(catalogQueries.countries());
    void context.queryClient.prefetchQuery(teamQueries.list(ALL_TEAMS));
  },
  component: CreateVmScreen,
});
