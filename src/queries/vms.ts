import { keepPreviousData, mutationOptions, queryOptions } from '@tanstack/react-query';
import type { ListProvidersQuery, ListVmsQuery, VmConfigurationsQuery } from '../api/contract/vms';
import {
  changeVmConfiguration,
  createVms,
  deleteVm,
  editVm,
  getRegion,
  getVm,
  listCombinedRegions,
  listConfigurations,
  listCountries,
  listImages,
  listProviders,
  listRegions,
  listVmConfigurations,
  listVms,
  resetVm,
  startVm,
  stopVm,
} from '../api/vms';

export const vmKeys = {
  all: ['vms'] as const,
  lists: () => [...vmKeys.all, 'list'] as const,
  list: (query: ListVmsQuery) => [...vmKeys.lists(), query] as const,
  details: () => [...vmKeys.all, 'detail'] as const,
  detail: (id: number) => [...vmKeys.details(), id] as const,
};

/** The catalogue changes only when the operator changes providers: cached for the session. */
export const catalogKeys = {
  all: ['catalog'] as const,
  countries: () => [...catalogKeys.all, 'countries'] as const,
  regions: (countryId: number) => [...catalogKeys.all, 'regions', countryId] as const,
  combinedRegions: () => [...catalogKeys.all, 'combinedRegions'] as const,
  region: (regionId: number) => [...catalogKeys.all, 'region', regionId] as const,
  images: (regionId: number) => [...catalogKeys.all, 'images', regionId] as const,
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

export const vmQueries = {
  list: (query: ListVmsQuery) =>
    queryOptions({
      queryKey: vmKeys.list(query),
      queryFn: () => listVms(query),
      placeholderData: keepPreviousData,
    }),
  detail: (id: number) => queryOptions({ queryKey: vmKeys.detail(id), queryFn: () => getVm(id) }),
};

// VMs show in team counts (the teams module) and in the dashboard's usage; the keys are spelled
// out to avoid import cycles.
const teamsKey = ['teams'];
const dashboardKey = ['dashboard'];

export const vmMutations = {
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
  edit: () =>
    mutationOptions({
      mutationFn: editVm,
      meta: { invalidates: [vmKeys.lists(), vmKeys.details(), teamsKey] },
    }),
  delete: () =>
    mutationOptions({
      mutationFn: deleteVm,
      meta: { invalidates: [vmKeys.lists(), vmKeys.details(), teamsKey, dashboardKey] },
    }),
};
