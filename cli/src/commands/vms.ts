import {
  listVmsResponse,
  vmActionResponse,
  vmConsoleResponse,
  vmDetailsResponse,
  type VmRow,
} from '../../../src/api/contract/vms';
import { pageOptions, waitOptions, type Command } from '../command';
import { parseCount, parseId, stringOption, timeoutOf } from '../values';
import { pollVm } from '../vm-poll';
import { actAndWait, checkEndings, type Subject } from '../wait';

const vmName = (s: Subject) => `VM ${s.id}`;

const list: Command = {
  path: ['vm', 'list'],
  summary: 'list the VMs you may see',
  options: {
    ...pageOptions,
    team: { type: 'string', value: 'id', description: "only the team's VMs" },
  },
  async run({ api, options, output }) {
    const page = await api().call('GET', 'virtualMachines/list', listVmsResponse, {
      query: {
        search: stringOption(options.search),
        page: parseCount(options.page, 'page', 1),
        rowsPerPage: parseCount(options.limit, 'limit', 50),
        teamId: options.team === undefined ? undefined : parseId(stringOption(options.team)),
      },
    });
    output.list<VmRow>(page.data.data, [
      { header: 'id', value: (r) => r.id, align: 'right' },
      { header: 'name', value: (r) => r.name },
      { header: 'status', value: (r) => r.status },
      { header: 'size', value: (r) => r.configuration },
      { header: 'cpu', value: (r) => r.cpu, align: 'right' },
      { header: 'ram GB', value: (r) => r.ram, align: 'right' },
      { header: 'created', value: (r) => r.createdAt.toISOString() },
    ]);
    if (output.format === 'table' && page.data.totalPages > 1) {
      console.error(`(page ${options.page ?? 1} of ${page.data.totalPages}: --page for more)`);
    }
  },
};

const show: Command = {
  path: ['vm', 'show'],
  args: ['<id>'],
  summary: "a VM's details",
  async run({ api, args, output }) {
    const id = parseId(args[0]);
    const { data } = await api().call('GET', `virtualMachines/details/${id}`, vmDetailsResponse);
    const vm = data.virtualMachine;
    output.record(data, [
      ['ID', vm.id],
      ['Name', vm.name],
      ['Status', data.status],
      ['Message', data.statusMessage],
      ['Size', `${vm.configuration} (${vm.cpu} vCPU, ${vm.ram} GB RAM, ${vm.disk} GB disk)`],
      ['Region', vm.region],
      ['Image', vm.image],
      ['Provider', vm.provider],
      ['Team', vm.teamName],
      ['Username', vm.username],
      ['Created', vm.createdAt.toISOString()],
    ]);
  },
};

/** Start, stop, reset and delete: a request, then (with --wait) the operation's end. */
function action(
  verb: 'start' | 'stop' | 'reset' | 'delete',
  summary: string,
  method: 'POST' | 'DELETE',
): Command {
  return {
    path: ['vm', verb],
    args: ['<id>'],
    summary,
    options: waitOptions,
    async run({ api, args, options, output }) {
      const id = parseId(args[0]);
      const request = () => api().call(method, `virtualMachines/${verb}/${id}`, vmActionResponse);
      if (!options.wait) {
        const { message } = await request();
        return output.done(message, { id });
      }
      const { result, endings } = await actAndWait(api(), request, () => [{ type: 'vm', id }], {
        timeoutSeconds: timeoutOf(options),
        poll: pollVm(api()),
      });
      checkEndings(endings, vmName);
      output.done(`VM ${id}: ${verb} done`, { id, requested: result.message, ok: true });
    },
  };
}

const consoleUrl: Command = {
  path: ['vm', 'console-url'],
  args: ['<id>'],
  summary: "a link to the VM's console: it opens one console, within a minute",
  async run({ api, args, output }) {
    const id = parseId(args[0]);
    const client = api();
    const { data } = await client.call(
      'GET',
      `virtualMachines/getConsole/${id}`,
      vmConsoleResponse,
    );
    const link = client.url(data.consoleUrl).href;
    output.record({ consoleUrl: link }, [['Console', link]]);
  },
};

export const vmCommands: Command[] = [
  list,
  show,
  action('start', 'start a stopped VM', 'POST'),
  action('stop', 'stop a running VM', 'POST'),
  action('reset', 'reset (reboot) a running VM', 'POST'),
  action('delete', 'delete a VM', 'DELETE'),
  consoleUrl,
];
