import { createFileRoute } from '@tanstack/react-router';
import { vmQueries } from '../../../../queries/vms';
import { VmDetailsScreen } from '../-components/vm-details-screen';

export const Route = createFileRoute('/_app/virtualMachineDetails/$virtualMachineId/')({
  // Prefetch without waiting: the screen shows its loader, or its error in place.
  loader: ({ context, params }) => {
    if (params.virtualMachineId)
      void context.queryClient.prefetchQuery(vmQueries.detail(params.virtualMachineId));
  },
  component: VmDetailsPage,
});

function VmDetailsPage() {
  const { virtualMachineId } = Route.useParams();
  return <VmDetailsScreen id={virtualMachineId} />;
}
