import { createFileRoute } from '@tanstack/react-router';
import { networkQueries } from '../../../../queries/networks';
import { NetworkDetailsScreen } from '../-components/network-details-screen';

export const Route = createFileRoute('/_app/networks/$networkId/')({
  // Prefetch without waiting: the screen shows its loader, or its error in place.
  loader: ({ context, params }) => {
    if (!params.networkId) return;
    void context.queryClient.prefetchQuery(networkQueries.detail(params.networkId));
    void context.queryClient.prefetchQuery(networkQueries.vms(params.networkId));
  },
  component: NetworkDetailsPage,
});

function NetworkDetailsPage() {
  const { networkId } = Route.useParams();
  return <NetworkDetailsScreen id={networkId} />;
}
