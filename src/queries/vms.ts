import { keepPreviousData, mutationOptions, queryOptions } from '@tanstack/react-query';
import {
  vmRules,
  type ListProvidersQuery,
  type ListVmsQuery,
  type VmConfigurationsQuery,
  type VmDetails,
  type VmPage,
} from '../api/contract/vms';
import {
  changeVmConfiguration,
  createVms,
  deleteVm,
  editVm,
  getRegion,
  getVm,
  getVmAccessKey,
  getVmConsole,
  getVmPassword,
  listCombinedRegions,
  listConfigurations,
  listCountries,
  listImages,
  listProviders,
  listRegions,
  listVmConfigurations,
  listVmImages,
  listVms,
  reinstallVm,
  resetVm,
  startVm,
  stopVm,
} from '../api/vms';
import { isLive } from '../live/stream-state';

export const vmKeys = {
  all: ['vms'] as const,
  lists: () => [...vmKeys.all, 'list'] as const,
  list: (query: ListVmsQuery) => [...vmKeys.lists(), query] as const,
  details: () => [...vmKeys.all, 'detail'] as const,
  detail: (id: number) => [...vmKeys.details(), id] as const,
  /** Secrets live apart from the details, so refreshing the details never refetches them. */
  password: (id: number) => [...vmKeys.all, 'password', id] as const,
  console: (id: number) => [...vmKeys.all, 'console', id] as const,
};

/** The catalogue changes only when the operator changes providers: cached for the session. */
export const catalogKeys = {
  all: ['catalog'] as const,
  countries: () => [...catalogKeys.all, 'countries'] as const,
  regions: (countryId: number) => [...catalogKeys.all, 'regions', countryId] as const,
  combinedRegions: () => [...catalogKeys.all, 'combinedRegions'] as const,
  region: (regionId: number) => [...catalogKeys.all, 'region', regionId] as const,
  images: (regionId: number) => [...catalogKeys.all, 'images', regionId] as const,
  vmImages: (regionId: number, vmId: number) =>
    [...catalogKeys.all, 'vmImages', regionId, vmId] as const,
  configurations: () => [...catalogKeys.all, 'configurations'] as const,
  providers: (regionId: number, query: ListProvidersQuery) =>
    [...catalogKeys.all, 'providers', regionId, query] as const,
  vmConfigurations: (regionId: number, query: VmConfigurationsQuery) =>
    [...catalogKeys.all, 'vmConfigurations', regionId, query] as const,
};

const CATALOG_STALE = 5 * 60_000;

export const catalogQueries = {
  countries: () =>
    queryOptions({
      queryKey: catalogKeys.countries(),
      queryFn: listCountries,
      staleTime: CATALOG_STALE,
    }),
  regions: (countryId: number) =>
    queryOptions({
      queryKey: catalogKeys.regions(countryId),
      queryFn: () => listRegions(countryId),
      staleTime: CATALOG_STALE,
    }),
  combinedRegions: () =>
    queryOptions({
      queryKey: catalogKeys.combinedRegions(),
      queryFn: listCombinedRegions,
      staleTime: CATALOG_STALE,
    }),
  region: (regionId: number) =>
    queryOptions({
      queryKey: catalogKeys.region(regionId),
      queryFn: () => getRegion(regionId),
      staleTime: CATALOG_STALE,
    }),
  images: (regionId: number) =>
    queryOptions({
      queryKey: catalogKeys.images(regionId),
      queryFn: () => listImages(regionId),
      staleTime: CATALOG_STALE,
    }),
  vmImages: (regionId: number, vmId: number) =>
    queryOptions({
      queryKey: catalogKeys.vmImages(regionId, vmId),
      queryFn: () => listVmImages(regionId, vmId),
      staleTime: CATALOG_STALE,
    }),
  configurations: () =>
    queryOptions({
      queryKey: catalogKeys.configurations(),
      queryFn: listConfigurations,
      staleTime: CATALOG_STALE,
    }),
  providers: (regionId: number, query: ListProvidersQuery) =>
    queryOptions({
      queryKey: catalogKeys.providers(regionId, query),
      queryFn: () => listProviders(regionId, query),
      staleTime: CATALOG_STALE,
    }),
  vmConfigurations: (regionId: number, query: VmConfigurationsQuery) =>
    queryOptions({
      queryKey: catalogKeys.vmConfigurations(regionId, query),
      queryFn: () => listVmConfigurations(regionId, query),
      staleTime: CATALOG_STALE,
    }),
};

/** How often a VM's status is asked again while it is moving (Provisioning, Starting, ...). */
export const VM_STATUS_POLL_MS = 2_500;

/**
 * While the live stream is down, polls what is in transition, so statuses still move on screen
 * without a manual refresh (with the stream up, its events do it). A failed refresh stops the
 * polling (the query cache toasts it once); Refresh starts it again.
 */
const pollWhile = <T>(
  state: { status: string; data: T | undefined },
  moving: (data: T) => boolean,
) =>
  !isLive() && state.status !== 'error' && state.data !== undefined && moving(state.data)
    ? VM_STATUS_POLL_MS
    : false;

export const listIsMoving = (page: VmPage) =>
  page.data.some((row) => vmRules.isTransitional(row.status));
export const vmIsMoving = (vm: VmDetails) => vmRules.isTransitional(vm.status);

export const vmQueries = {
  list: (query: ListVmsQuery) =>
    queryOptions({
      queryKey: vmKeys.list(query),
      queryFn: () => listVms(query),
      placeholderData: keepPreviousData,
      refetchInterval: (query) => pollWhile(query.state, listIsMoving),
    }),
  detail: (id: number) =>
    queryOptions({
      queryKey: vmKeys.detail(id),
      queryFn: () => getVm(id),
      refetchInterval: (query) => pollWhile(query.state, vmIsMoving),
    }),
  /**
   * The SSH password, asked for only while the user shows it. Never refetched on its own, and
   * dropped from the cache as soon as nothing shows it (the screen also removes it on hide).
   */
  password: (id: number) =>
    queryOptions({
      queryKey: vmKeys.password(id),
      queryFn: () => getVmPassword(id),
      staleTime: Infinity,
      gcTime: 0,
      retry: false,
    }),
  /** A console address is a short-lived ticket: asked for afresh each time the console opens. */
  console: (id: number) =>
    queryOptions({
      queryKey: vmKeys.console(id),
      queryFn: () => getVmConsole(id),
      staleTime: 0,
      gcTime: 0,
      retry: false,
    }),
};

// VMs show in team counts (the teams module) and in the dashboard's usage; the keys are spelled
// out to avoid import cycles.
const teamsKey = ['teams'];
const dashboardKey = ['dashboard'];

export const vmMutations = {
  /**
   * The private key is fetched for one download and never kept in the query cache; a mutation
   * (which changes nothing, so invalidates nothing) gives the button its pending state.
   */
  accessKey: () => mutationOptions({ mutationFn: getVmAccessKey }),
  create: () =>
    mutationOptions({
      mutationFn: createVms,
      meta: { invalidates: [vmKeys.lists(), teamsKey, dashboardKey] },
    }),
  /** Start, stop and reset change the VM's status in its details and in the lists. */
  start: () =>
    mutationOptions({
      mutationFn: startVm,
      meta: { invalidates: [vmKeys.lists(), vmKeys.details()] },
    }),
  stop: () =>
    mutationOptions({
      mutationFn: stopVm,
      meta: { invalidates: [vmKeys.lists(), vmKeys.details()] },
    }),
  reset: () =>
    mutationOptions({
      mutationFn: resetVm,
      meta: { invalidates: [vmKeys.lists(), vmKeys.details()] },
    }),
  upgrade: () =>
    mutationOptions({
      mutationFn: changeVmConfiguration,
      meta: { invalidates: [vmKeys.lists(), vmKeys.details(), dashboardKey] },
    }),
  /** The image and the credentials change when it ends: the details reload then (live events). */
  reinstall: () =>
    mutationOptions({
      mutationFn: reinstallVm,
      meta: { invalidates: [vmKeys.lists(), vmKeys.details()] },
    }),
  edit: () =>
    mutationOptions({
      mutationFn: editVm,
      meta: { invalidates: [vmKeys.lists(), vmKeys.details(), teamsKey] },
    }),
  // Not the details: the deleted VM's would answer 404 (the screen drops them when it leaves).
  delete: () =>
    mutationOptions({
      mutationFn: deleteVm,
      meta: { invalidates: [vmKeys.lists(), teamsKey, dashboardKey] },
    }),
};
