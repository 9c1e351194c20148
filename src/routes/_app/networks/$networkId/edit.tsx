import { createFileRoute } from '@tanstack/react-router';
import { networkQueries } from '../../../../queries/networks';
import { EditNetworkScreen } from '../-components/network-form-screens';

export const Route = createFileRoute('/_app/networks/$networkId/edit')({
  // Prefetch without waiting: the screen shows its loader, or its error in place.
  loader: ({ context, params }) => {
    if (params.networkId)
      void context.queryClient.prefetchQuery(networkQueries.detail(params.networkId));
  },
  component: EditNetworkPage,
});

function EditNetworkPage() {
  const { networkId } = Route.useParams();
  return <EditNetworkScreen id={networkId} />;
}
