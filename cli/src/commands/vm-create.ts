import {
  combinedRegionsResponse,
  configurationsResponse,
  createVmResponse,
  lookupListResponse,
  vmActionResponse,
  vmDetailsResponse,
  type Configuration,
} from '../../../src/api/contract/vms';
import { waitOptions, type Command } from '../command';
import type { Api } from '../http';
import { parseCount, parseId, requireOption, stringOption, timeoutOf } from '../values';
import { pick } from '../values';
import { pollVm } from '../vm-poll';
import { actAndWait, checkEndings, type Subject } from '../wait';

const sizeNames = (c: Configuration) => [c.key, c.name];

async function region(api: Api, wanted: string) {
  const { data } = await api.call(
    'GET',
    'virtualMachines/listCombinedRegions',
    combinedRegionsResponse,
  );
  return pick(data, wanted, 'region', (r) => [r.countryRegion]);
}

/** The ids of an order, from the names or ids given and the lookups the console's form uses. */
async function order(api: Api, options: Record<string, string | boolean | undefined>) {
  const regionId = (await region(api, requireOption(options, 'region'))).id;
  const images = await api.call(
    'GET',
    `virtualMachines/listImages/${regionId}`,
    lookupListResponse,
  );
  const imageId = pick(images.data, requireOption(options, 'image'), 'image', (i) => [i.name]).id;
  const sizes = await api.call(
    'GET',
    `virtualMachines/fetchVirtualMachineConfigurations/${regionId}`,
    configurationsResponse,
    { query: { imageId } },
  );
  const configurationId = pick(sizes.data, requireOption(options, 'size'), 'size', sizeNames).id;
  const providers = await api.call(
    'GET',
    `virtualMachines/listProviders/${regionId}`,
    lookupListResponse,
    { query: { imageId, configurationId } },
  );
  const wantedProvider = stringOption(options.provider);
  const providerId = wantedProvider
    ? pick(providers.data, wantedProvider, 'provider', (p) => [p.name]).id
    : // The first one offered, as the console preselects it; the server refuses when there is none.
      (providers.data[0]?.id ?? 0);
  return { regionId, imageId, configurationId, providerId };
}

const create: Command = {
  path: ['vm', 'create'],
  summary: 'order one VM, or several numbered copies',
  options: {
    name: { type: 'string', value: 'name', description: 'the VM name (required)' },
    region: { type: 'string', value: 'region', description: 'id or "Country - Region" (required)' },
    image: { type: 'string', value: 'image', description: 'id or name (required)' },
    size: { type: 'string', value: 'size', description: 'id, key (small) or name (required)' },
    provider: { type: 'string', value: 'provider', description: 'id or name (default: first)' },
    count: { type: 'string', value: 'n', description: 'numbered copies, 1-10 (default 1)' },
    team: { type: 'string', value: 'id', description: 'the team it belongs to' },
    'no-public-ip': { type: 'boolean', description: 'do not allocate a public address' },
    ...waitOptions,
  },
  notes: [
    'Example: launchpad vm create --name web --region "Los Angeles" --image "Ubuntu 24.04" --size small --wait',
  ],
  async run({ api, options, output }) {
    const client = api();
    const name = requireOption(options, 'name');
    const ids = await order(client, options);
    const body = {
      ...ids,
      name,
      numberOfInstances: parseCount(options.count, 'count', 1),
      teamId: options.team === undefined ? null : parseId(stringOption(options.team), '--team'),
      allocatePublicIp: !options['no-public-ip'],
    };
    const request = () => client.call('POST', 'virtualMachines/create', createVmResponse, { body });
    if (!options.wait) {
      const { data, message } = await request();
      return output.done(`${message}: ${data.ids.join(', ')}`, { ids: data.ids });
    }
    const { result, endings } = await actAndWait(
      client,
      request,
      (r) => r.data.ids.map((id): Subject => ({ type: 'vm', id })),
      { timeoutSeconds: timeoutOf(options), poll: pollVm(client) },
    );
    checkEndings(endings, (s) => `VM ${s.id}`);
    output.done(`Created and running: ${result.data.ids.join(', ')}`, {
      ids: result.data.ids,
      ok: true,
    });
  },
};

const upgrade: Command = {
  path: ['vm', 'upgrade'],
  args: ['<id>'],
  summary: 'move a VM to a larger size (more CPU cores)',
  options: {
    size: { type: 'string', value: 'size', description: 'id, key (medium) or name (required)' },
    ...waitOptions,
  },
  async run({ api, args, options, output }) {
    const client = api();
    const id = parseId(args[0]);
    const wanted = requireOption(options, 'size');
    const { data } = await client.call('GET', `virtualMachines/details/${id}`, vmDetailsResponse);
    const sizes = await client.call(
      'GET',
      `virtualMachines/fetchVirtualMachineConfigurations/${data.virtualMachine.regionId}`,
      configurationsResponse,
      { query: { vmId: id } },
    );
    const configurationId = pick(sizes.data, wanted, 'size', sizeNames).id;
    const request = () =>
      client.call('PUT', 'virtualMachines/changeConfiguration', vmActionResponse, {
        body: { id, configurationId },
      });
    if (!options.wait) {
      const { message } = await request();
      return output.done(message, { id });
    }
    const { endings } = await actAndWait(client, request, () => [{ type: 'vm', id }], {
      timeoutSeconds: timeoutOf(options),
      poll: pollVm(client),
    });
    checkEndings(endings, (s) => `VM ${s.id}`);
    output.done(`VM ${id}: upgrade done`, { id, ok: true });
  },
};

export const vmCreateCommands: Command[] = [create, upgrade];
