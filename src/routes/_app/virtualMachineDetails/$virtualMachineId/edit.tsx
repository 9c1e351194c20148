import { createFileRoute } from '@tanstack/react-router';
import { vmQueries } from '../../../../queries/vms';
import { VmEditScreen } from '../-components/vm-edit-screen';

export const Route = createFileRoute('/_app/virtualMachineDetails/$virtualMachineId/edit')({
  // Prefetch without waiting: the screen shows its loader, or its error in place.
  loader: ({ context, params }) => {
    if (params.virtualMachineId)
      void context.queryClient.prefetchQuery(vmQueries.detail(params.virtualMachineId));
  },
  component: VmEditPage,
});

function VmEditPage() {
  const { virtualMachineId } = Route.useParams();
  return <VmEditScreen id={virtualMachineId} />;
}
