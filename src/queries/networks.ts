import { keepPreviousData, mutationOptions, queryOptions } from '@tanstack/react-query';
import type { CidrDetailsQuery, ListNetworksQuery, NetworkAdapter } from '../api/contract/networks';
import {
  addNetworkInterface,
  allocatePublicIp,
  createNetwork,
  deleteNetwork,
  getCidrDetails,
  getNetwork,
  listAvailableNetworks,
  listNetAdapters,
  listNetworks,
  listNetworkVms,
  releasePublicIp,
  removeNetworkInterface,
  updateNetwork,
} from '../api/networks';
import { isLive } from '../live/stream-state';
import { vmKeys } from './vms';

export const networkKeys = {
  all: ['networks'] as const,
  lists: () => [...networkKeys.all, 'list'] as const,
  list: (query: ListNetworksQuery) => [...networkKeys.lists(), query] as const,
  details: () => [...networkKeys.all, 'detail'] as const,
  detail: (id: number) => [...networkKeys.details(), id] as const,
  /** The VMs connected to a network. */
  vms: (id: number) => [...networkKeys.detail(id), 'vms'] as const,
  cidr: (query: CidrDetailsQuery) => [...networkKeys.all, 'cidr', query] as const,
  /** A VM's interfaces and the networks it could still join. */
  adapters: () => [...networkKeys.all, 'adapters'] as const,
  adaptersOf: (vmId: number) => [...networkKeys.adapters(), vmId] as const,
  available: () => [...networkKeys.all, 'available'] as const,
  availableFor: (vmId: number) => [...networkKeys.available(), vmId] as const,
};

/** How often a VM's interfaces are asked again while one of them is changing. */
export const INTERFACE_POLL_MS = 2_500;

/** An interface being attached or detached by the provider. */
export const adapterIsMoving = (adapter: NetworkAdapter) =>
  adapter.status === 'Attaching' || adapter.status === 'Detaching';

export const networkQueries = {
  list: (query: ListNetworksQuery) =>
    queryOptions({
      queryKey: networkKeys.list(query),
      queryFn: () => listNetworks(query),
      placeholderData: keepPreviousData,
    }),
  detail: (id: number) =>
    queryOptions({ queryKey: networkKeys.detail(id), queryFn: () => getNetwork(id) }),
  vms: (id: number) =>
    queryOptions({ queryKey: networkKeys.vms(id), queryFn: () => listNetworkVms(id) }),
  cidr: (query: CidrDetailsQuery) =>
    queryOptions({
      queryKey: networkKeys.cidr(query),
      queryFn: () => getCidrDetails(query),
      staleTime: 60_000,
    }),
  /**
   * A VM's interfaces. While the live stream is down, polled while one is being attached or
   * detached, and while the screen waits for an operation it started (`waiting`: a public IP to
   * appear or go). A failed refresh stops the polling; the query cache toasts it once.
   */
  adapters: (vmId: number, waiting = false) =>
    queryOptions({
      queryKey: networkKeys.adaptersOf(vmId),
      queryFn: () => listNetAdapters(vmId),
      refetchInterval: (query) =>
        !isLive() &&
        query.state.status !== 'error' &&
        (waiting || (query.state.data?.some(adapterIsMoving) ?? false))
          ? INTERFACE_POLL_MS
          : false,
    }),
  available: (vmId: number) =>
    queryOptions({
      queryKey: networkKeys.availableFor(vmId),
      queryFn: () => listAvailableNetworks(vmId),
    }),
};

/**
 * Networks and interfaces change each other's figures: connected VMs and used addresses on one
 * side, adapters and available networks on the other, and the VM details show the interfaces.
 */
const networksAndInterfaces = [networkKeys.all, vmKeys.details()];

export const networkMutations = {
  create: () =>
    mutationOptions({ mutationFn: createNetwork, meta: { invalidates: [networkKeys.all] } }),
  update: () =>
    mutationOptions({ mutationFn: updateNetwork, meta: { invalidates: [networkKeys.all] } }),
  /**
   * Not the deleted network's own details: refetched while its page still shows, they would answer
   * 404. The screen drops them once it has left the page.
   */
  delete: () =>
    mutationOptions({
      mutationFn: deleteNetwork,
      meta: { invalidates: [networkKeys.lists(), networkKeys.available()] },
    }),
  addInterface: () =>
    mutationOptions({
      mutationFn: addNetworkInterface,
      meta: { invalidates: networksAndInterfaces },
    }),
  removeInterface: () =>
    mutationOptions({
      mutationFn: removeNetworkInterface,
      meta: { invalidates: networksAndInterfaces },
    }),
  allocatePublicIp: () =>
    mutationOptions({ mutationFn: allocatePublicIp, meta: { invalidates: networksAndInterfaces } }),
  releasePublicIp: () =>
    mutationOptions({ mutationFn: releasePublicIp, meta: { invalidates: networksAndInterfaces } }),
};
