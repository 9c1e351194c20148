import {
  addNetworkInterfaceResponse,
  availableNetworksResponse,
  cidrDetailsResponse,
  connectedVmsResponse,
  createNetworkResponse,
  listNetworksResponse,
  netAdaptersResponse,
  networkActionResponse,
  networkDetailsResponse,
  type CidrDetailsQuery,
  type CreateNetworkBody,
  type ListNetworksQuery,
  type UpdateNetworkBody,
} from './contract/networks';
import { request } from './client';

export const listNetworks = (query: ListNetworksQuery) =>
  request('get', 'networks/list', listNetworksResponse, { searchParams: { ...query } }).then(
    (r) => r.data,
  );

export const getNetwork = (id: number) =>
  request('get', `networks/${id}`, networkDetailsResponse).then((r) => r.data);

export const listNetworkVms = (id: number) =>
  request('get', `networks/${id}/vmsForNetwork`, connectedVmsResponse).then((r) => r.data);

export const getCidrDetails = (query: CidrDetailsQuery) =>
  request('get', 'networks/getCIDRDetails', cidrDetailsResponse, {
    searchParams: { ...query },
  }).then((r) => r.data);

export const createNetwork = (body: CreateNetworkBody) =>
  request('post', 'networks/create', createNetworkResponse, { json: body });

export const updateNetwork = ({ id, ...body }: UpdateNetworkBody & { id: number }) =>
  request('put', `networks/update/${id}`, networkActionResponse, { json: body });

export const deleteNetwork = (id: number) =>
  request('delete', `networks/delete/${id}`, networkActionResponse);

// A VM's interfaces (the VM group of the API) and their public IPs (the network group).

export const listNetAdapters = (vmId: number) =>
  request('get', `networks/listNetAdapters/${vmId}`, netAdaptersResponse).then((r) => r.data);

export const listAvailableNetworks = (vmId: number) =>
  request('get', `virtualMachines/${vmId}/availableNetworks`, availableNetworksResponse).then(
    (r) => r.data,
  );

export const addNetworkInterface = ({ vmId, networkId }: { vmId: number; networkId: number }) =>
  request('post', `virtualMachines/${vmId}/addNetworkInterfaces`, addNetworkInterfaceResponse, {
    json: { networkId },
  });

export const removeNetworkInterface = ({ vmId, networkId }: { vmId: number; networkId: number }) =>
  request(
    'delete',
    `virtualMachines/${vmId}/removeNetworkInterfaces/${networkId}`,
    networkActionResponse,
  );

export const allocatePublicIp = (interfaceId: number) =>
  request('post', `networks/allocatePublicIp/${interfaceId}`, networkActionResponse);

export const releasePublicIp = (interfaceId: number) =>
  request('delete', `networks/releasePublicIp/${interfaceId}`, networkActionResponse);
