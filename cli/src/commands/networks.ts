import {
  cidrDetailsResponse,
  DEFAULT_DNS_SERVERS,
  createNetworkResponse,
  listNetworksResponse,
  networkActionResponse,
  networkDetailsResponse,
  type NetworkRow,
} from '../../../src/api/contract/networks';
import { combinedRegionsResponse } from '../../../src/api/contract/vms';
import { pageOptions, waitOptions, type Command } from '../command';
import { parseCount, parseId, pick, requireOption, stringOption, timeoutOf } from '../values';
import { actAndWait, checkEndings, type Subject } from '../wait';

const networkName = (s: Subject) => `Network ${s.id}`;

const list: Command = {
  path: ['network', 'list'],
  summary: "list the company's networks",
  options: pageOptions,
  async run({ api, options, output }) {
    const page = await api().call('GET', 'networks/list', listNetworksResponse, {
      query: {
        search: stringOption(options.search),
        page: parseCount(options.page, 'page', 1),
        rowsPerPage: parseCount(options.limit, 'limit', 50),
      },
    });
    output.list<NetworkRow>(page.data.data, [
      { header: 'id', value: (r) => r.id, align: 'right' },
      { header: 'name', value: (r) => r.name },
      { header: 'cidr', value: (r) => r.cidrBlock },
      { header: 'region', value: (r) => r.region },
      { header: 'vms', value: (r) => r.connectedVms, align: 'right' },
    ]);
  },
};

const show: Command = {
  path: ['network', 'show'],
  args: ['<id>'],
  summary: "a network's details",
  async run({ api, args, output }) {
    const id = parseId(args[0]);
    const { data } = await api().call('GET', `networks/${id}`, networkDetailsResponse);
    output.record(data, [
      ['ID', data.id],
      ['Name', data.name],
      ['Type', data.networkType],
      ['Region', data.region],
      ['CIDR', data.cidrBlock],
      ['Gateway', data.gatewayIp],
      [
        'DHCP',
        data.dhcpServerEnabled ? `${data.dhcpStartAddress} - ${data.dhcpEndAddress}` : 'off',
      ],
      ['DNS', data.dnsNameservers.join(', ')],
      ['SNAT', data.snatEnabled ? (data.snat ?? 'on') : 'off'],
      ['VMs', data.connectedVms],
      ['Description', data.description],
    ]);
  },
};

const create: Command = {
  path: ['network', 'create'],
  summary: 'create a network (Admins)',
  options: {
    name: { type: 'string', value: 'name', description: 'the network name (required)' },
    region: { type: 'string', value: 'region', description: 'id or "Country - Region" (required)' },
    cidr: {
      type: 'string',
      value: 'cidr',
      description: 'the address block, 10.0.0.0/24 (required)',
    },
    type: { type: 'string', value: 'type', description: 'standard (default) or custom (layer 2)' },
    description: { type: 'string', value: 'text', description: 'a description' },
    'dhcp-start': { type: 'string', value: 'ip', description: 'default: as the block suggests' },
    'dhcp-end': { type: 'string', value: 'ip', description: 'default: as the block suggests' },
    gateway: { type: 'string', value: 'ip', description: 'default: as the block suggests' },
    dns: {
      type: 'string',
      value: 'ips',
      description: 'one or two, comma separated (default 1.1.1.1, 8.8.8.8)',
    },
    'no-snat': { type: 'boolean', description: 'no outbound address translation' },
    ...waitOptions,
  },
  async run({ api, options, output }) {
    const client = api();
    const regions = await client.call(
      'GET',
      'virtualMachines/listCombinedRegions',
      combinedRegionsResponse,
    );
    const regionId = pick(regions.data, requireOption(options, 'region'), 'region', (r) => [
      r.countryRegion,
    ]).id;
    const cidrBlock = requireOption(options, 'cidr');
    const networkType = stringOption(options.type) ?? 'standard';
    let suggested = { dhcpStartAddress: '', dhcpEndAddress: '', gatewayIp: '' };
    if (networkType === 'standard') {
      // The console's form fills these in from the block; so does the client, unless given.
      const details = await client.call('GET', 'networks/getCIDRDetails', cidrDetailsResponse, {
        query: { cidr: cidrBlock, regionId },
      });
      suggested = details.data;
    }
    const standard = networkType === 'standard';
    const body = {
      name: requireOption(options, 'name'),
      description: stringOption(options.description) ?? null,
      regionId,
      cidrBlock,
      networkType,
      snatEnabled: !options['no-snat'],
      dhcpStartAddress: standard
        ? (stringOption(options['dhcp-start']) ?? suggested.dhcpStartAddress)
        : null,
      dhcpEndAddress: standard
        ? (stringOption(options['dhcp-end']) ?? suggested.dhcpEndAddress)
        : null,
      defaultRoute: standard ? (stringOption(options.gateway) ?? suggested.gatewayIp) : null,
      dnsServers: standard ? (stringOption(options.dns) ?? DEFAULT_DNS_SERVERS) : null,
    };
    const request = () => client.call('POST', 'networks/create', createNetworkResponse, { body });
    if (!options.wait) {
      const { data, message } = await request();
      return output.done(`${message}: ${data.id}`, { id: data.id });
    }
    const { result, endings } = await actAndWait(
      client,
      request,
      (r) => [{ type: 'network', id: r.data.id }],
      { timeoutSeconds: timeoutOf(options) },
    );
    checkEndings(endings, networkName);
    output.done(`Network ${result.data.id} created`, { id: result.data.id, ok: true });
  },
};

const remove: Command = {
  path: ['network', 'delete'],
  args: ['<id>'],
  summary: 'delete a network without VMs (Admins)',
  options: waitOptions,
  async run({ api, args, options, output }) {
    const id = parseId(args[0]);
    const request = () => api().call('DELETE', `networks/delete/${id}`, networkActionResponse);
    if (!options.wait) {
      const { message } = await request();
      return output.done(message, { id });
    }
    const { endings } = await actAndWait(api(), request, () => [{ type: 'network', id }], {
      timeoutSeconds: timeoutOf(options),
    });
    checkEndings(endings, networkName);
    output.done(`Network ${id} deleted`, { id, ok: true });
  },
};

export const networkCommands: Command[] = [list, show, create, remove];
