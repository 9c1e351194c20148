import { createFileRoute, Outlet } from '@tanstack/react-router';
import { networkIdParams } from './-components/network-id-param';
import { NetworkNotFound } from './-components/network-not-found';

/** One network: its details and its edit page. An id that is not a number names no network. */
export const Route = createFileRoute('/_app/networks/$networkId')({
  params: networkIdParams,
  component: NetworkLayout,
});

function NetworkLayout() {
  const { networkId } = Route.useParams();
  return networkId ? <Outlet /> : <NetworkNotFound />;
}
