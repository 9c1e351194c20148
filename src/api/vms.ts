import {
  combinedRegionsResponse,
  configurationsResponse,
  createVmResponse,
  dashboardDataResponse,
  listVmsResponse,
  lookupListResponse,
  regionResponse,
  vmAccessKeyResponse,
  vmActionResponse,
  vmConsoleResponse,
  vmDetailsResponse,
  vmPasswordResponse,
  type ChangeConfigurationBody,
  type CreateVmBody,
  type EditVmBody,
  type ListProvidersQuery,
  type ListVmsQuery,
  type ReinstallVmBody,
  type VmConfigurationsQuery,
} from './contract/vms';
import { request } from './client';

const base = 'virtualMachines';

// Lookups of the create cascade and the upgrade modal.

export const listCountries = () =>
  request('get', `${base}/listCountries`, lookupListResponse).then((r) => r.data);

export const listRegions = (countryId: number) =>
  request('get', `${base}/listRegions/${countryId}`, lookupListResponse).then((r) => r.data);

export const listCombinedRegions = () =>
  request('get', `${base}/listCombinedRegions`, combinedRegionsResponse).then((r) => r.data);

export const listCities = (countryId: number) =>
  request('get', `${base}/listCities/${countryId}`, lookupListResponse).then((r) => r.data);

export const listImages = (regionId: number) =>
  request('get', `${base}/listImages/${regionId}`, lookupListResponse).then((r) => r.data);

export const getRegion = (regionId: number) =>
  request('get', `${base}/getRegion/${regionId}`, regionResponse).then((r) => r.data);

export const listConfigurations = () =>
  request('get', `${base}/listConfigurations`, configurationsResponse).then((r) => r.data);

export const listProviders = (regionId: number, query: ListProvidersQuery) =>
  request('get', `${base}/listProviders/${regionId}`, lookupListResponse, {
    searchParams: { ...query },
  }).then((r) => r.data);

export const listVmConfigurations = (regionId: number, query: VmConfigurationsQuery) =>
  request('get', `${base}/fetchVirtualMachineConfigurations/${regionId}`, configurationsResponse, {
    searchParams: { ...query },
  }).then((r) => r.data);

// The VMs themselves.

export const listVms = (query: ListVmsQuery) =>
  request('get', `${base}/list`, listVmsResponse, { searchParams: { ...query } }).then(
    (r) => r.data,
  );

export const getVm = (id: number) =>
  request('get', `${base}/details/${id}`, vmDetailsResponse).then((r) => r.data);

export const getVmPassword = (id: number) =>
  request('get', `${base}/getPassword/${id}`, vmPasswordResponse).then((r) => r.data);

export const getVmAccessKey = (id: number) =>
  request('get', `${base}/getAccessKey/${id}`, vmAccessKeyResponse).then((r) => r.data);

export const getVmConsole = (id: number) =>
  request('get', `${base}/getConsole/${id}`, vmConsoleResponse).then((r) => r.data);

export const createVms = (body: CreateVmBody) =>
  request('post', `${base}/create`, createVmResponse, { json: body });

export const changeVmConfiguration = (body: ChangeConfigurationBody) =>
  request('put', `${base}/changeConfiguration`, vmActionResponse, { json: body });

export const editVm = ({ id, ...body }: EditVmBody & { id: number }) =>
  request('put', `${base}/edit/${id}`, vmActionResponse, { json: body });

export const deleteVm = (id: number) => request('delete', `${base}/delete/${id}`, vmActionResponse);

export const startVm = (id: number) => request('post', `${base}/start/${id}`, vmActionResponse);

export const stopVm = (id: number) => request('post', `${base}/stop/${id}`, vmActionResponse);

export const resetVm = (id: number) => request('post', `${base}/reset/${id}`, vmActionResponse);

export const reinstallVm = ({ id, ...body }: ReinstallVmBody & { id: number }) =>
  request('post', `${base}/reinstall/${id}`, vmActionResponse, { json: body });

/** The images a VM can be reinstalled from (its provider's, in its region). */
export const listVmImages = (regionId: number, vmId: number) =>
  request('get', `${base}/listImages/${regionId}`, lookupListResponse, {
    searchParams: { vmId },
  }).then((r) => r.data);

// Usage of the dashboard (it belongs to the VM group of the API).

export const getDashboardData = () =>
  request('get', `${base}/GetDashboardData`, dashboardDataResponse).then((r) => r.data);
