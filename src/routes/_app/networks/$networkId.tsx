import { createFileRoute, Outlet } from '@tanstack/react-router';
import { idParams } from '../../-components/id-param';
import { NetworkNotFound } from './-components/network-not-found';

/** One network: its details and its edit page. An id that is not a number names no network. */
export const Route = createFileRoute('/_app/networks/$networkId')({
  params: idParams('networkId'),
  component: NetworkLayout,
});

function NetworkLayout() {
  const { networkId } = Route.useParams();
  return networkId ? <Outlet /> : <NetworkNotFound />;
}
