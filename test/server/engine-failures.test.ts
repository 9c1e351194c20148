import { Writable } from 'node:stream';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ActivityEvent } from '../../src/api/contract/activity';
import type { NetworkAdapter } from '../../src/api/contract/networks';
import type { VmDetails } from '../../src/api/contract/vms';
import { operations } from '../../server/jobs/schema';
import { startVmWorld, type VmWorld, type Who } from './support/vm-world';

/**
 * An engine that fails in its own words (an `ssh` error naming a host, virsh's complaint, a host's
 * free memory): tenants are told an engine-neutral reason wherever they look, and the words go to
 * the log beside the operation's id.
 */

let w: VmWorld;
let log = '';
const stream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    log += chunk.toString();
    done();
  },
});

beforeAll(async () => {
  w = await startVmWorld({ logStream: stream });
});
afterAll(() => w.close());
beforeEach(() => {
  w.server.sim.faults.clear();
  vi.restoreAllMocks();
});

const SSH_ERROR = 'ssh: connect to host hv-3.dc1.internal (10.20.0.7) port 22: No route to host';
const HOST_MEMORY =
  'No host in lax-1 has 48 GiB of memory free (the most is 3.1 GiB, on hv-2.lax.internal)';
const VIRSH_ERROR =
  "internal error: unable to execute QEMU command 'device_add': tap lp-tap9 on hv-3.dc1.internal (10.20.0.7) is busy";
/** Pieces of the engine's words that must never reach a tenant. */
const RAW = ['hv-3', 'hv-2', 'dc1.internal', '10.20.0.7', 'ssh:', 'GiB', 'QEMU', 'lp-tap9'];

const db = () => w.server.database.db;

async function details(id: number) {
  const res = await w.call('admin', 'GET', `/virtualMachines/details/${id}`);
  expect(res.status).toBe(200);
  return (res.body as { data: VmDetails }).data;
}

async function history(query: string, who: Who = 'admin') {
  const res = await w.call(who, 'GET', `/activity/list?${query}`);
  expect(res.status).toBe(200);
  return (res.body as { data: { data: ActivityEvent[] } }).data.data;
}

async function lastOperation(where: { vmId: number } | { networkId: number }) {
  const column = 'vmId' in where ? operations.vmId : operations.networkId;
  const id = 'vmId' in where ? where.vmId : where.networkId;
  const rows = await db()
    .select()
    .from(operations)
    .where(eq(column, id))
    .orderBy(asc(operations.id));
  return rows.at(-1)!;
}

/** What a tenant can read of a VM's failure: its details, its history and the diagnostics. */
async function whatTenantsSee(vmId: number) {
  const seen = [
    (await w.call('admin', 'GET', `/virtualMachines/details/${vmId}`)).body,
    (await w.call('viewer', 'GET', `/activity/list?subjectType=vm&subjectId=${vmId}`)).body,
    (await w.call('admin', 'GET', '/debug/debugSharktech')).body,
  ];
  return JSON.stringify(seen);
}

const expectNoEngineWords = (text: string) => {
  for (const raw of RAW) expect(text).not.toContain(raw);
};

/** The log lines about an operation, as pino wrote them. */
const logLinesOf = (operationId: number) =>
  log
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.operationId === operationId);

describe('an engine that cannot be reached', () => {
  it('is told to tenants as a host that cannot be reached; the ssh error goes to the log', async () => {
    const id = await w.runningVm('far-away');
    w.server.sim.faults.inject({
      kind: 'unavailable',
      action: 'stop',
      message: SSH_ERROR,
      times: 100,
    });
    await w.call('operator', 'POST', `/virtualMachines/stop/${id}`);
    await w.server.finishOperations(600);

    const reason = 'The host of this server cannot be reached';
    expect(await details(id)).toMatchObject({
      status: 'Running',
      statusMessage: `Stop failed: ${reason}`,
    });
    const op = await lastOperation({ vmId: id });
    expect(op).toMatchObject({ kind: 'vm.stop', status: 'failed', lastError: reason });
    const [failed] = await history(`subjectType=vm&subjectId=${id}&outcome=failed`, 'viewer');
    expect(failed).toMatchObject({ action: 'vm.stop', detail: { reason } });
    expectNoEngineWords(await whatTenantsSee(id));

    const lines = logLinesOf(op.id);
    expect(lines).toContainEqual(
      expect.objectContaining({
        msg: 'operation failed',
        level: 40,
        vmId: id,
        error: reason,
        cause: SSH_ERROR,
      }),
    );
    // Each retry said why, too.
    expect(
      lines.filter((l) => l.msg === 'operation step failed' && l.cause === SSH_ERROR),
    ).toHaveLength(7);
  });

  it("names the network when it is a network's host", async () => {
    w.server.sim.faults.inject({
      kind: 'unavailable',
      action: 'network',
      message: SSH_ERROR,
      times: 8,
    });
    const res = await w.call('admin', 'POST', '/networks/create', {
      name: 'unreached',
      regionId: (await w.order()).regionId,
      cidrBlock: '10.61.0.0/24',
      networkType: 'custom',
    });
    expect(res.status).toBe(200);
    const networkId = (res.body as { data: { id: number } }).data.id;
    await w.server.finishOperations(600);

    const reason = 'The host of this network cannot be reached';
    const op = await lastOperation({ networkId });
    expect(op).toMatchObject({ kind: 'network.create', status: 'failed', lastError: reason });
    const [failed] = await history(`networkId=${networkId}&outcome=failed`);
    expect(failed).toMatchObject({ action: 'network.create', detail: { reason } });
    expect(logLinesOf(op.id)).toContainEqual(
      expect.objectContaining({ msg: 'operation failed', networkId, cause: SSH_ERROR }),
    );
  });
});

describe('an engine that refuses', () => {
  it("tells a refused upgrade as a lack of capacity, not the hosts' free memory", async () => {
    const id = await w.runningVm('too-big');
    w.server.sim.faults.inject({
      kind: 'refuse',
      action: 'resize',
      message: HOST_MEMORY,
      capacity: true,
    });
    const res = await w.call('manager', 'PUT', '/virtualMachines/changeConfiguration', {
      id,
      configurationId: 5,
    });
    expect(res.status).toBe(200);
    await w.server.finishOperations();

    const reason = 'There is not enough capacity for this server right now';
    expect(await details(id)).toMatchObject({
      status: 'Running',
      statusMessage: `Upgrade failed: ${reason}`,
      virtualMachine: { configurationId: 3 },
    });
    const op = await lastOperation({ vmId: id });
    expect(op).toMatchObject({ kind: 'vm.resize', status: 'failed', lastError: reason });
    const [failed] = await history(`subjectType=vm&subjectId=${id}&outcome=failed`);
    expect(failed).toMatchObject({ detail: { reason } });
    expectNoEngineWords(await whatTenantsSee(id));
    expect(logLinesOf(op.id)).toContainEqual(
      expect.objectContaining({ msg: 'operation failed', vmId: id, cause: HOST_MEMORY }),
    );
  });

  it('shows a refusal the driver wrote for the user about their request as it is', async () => {
    const id = await w.runningVm('picky');
    const words = 'The Large size cannot run this image';
    w.server.sim.faults.inject({ kind: 'refuse', action: 'resize', message: words, words: 'user' });
    await w.call('manager', 'PUT', '/virtualMachines/changeConfiguration', {
      id,
      configurationId: 5,
    });
    await w.server.finishOperations();

    expect(await details(id)).toMatchObject({ statusMessage: `Upgrade failed: ${words}` });
    expect(await lastOperation({ vmId: id })).toMatchObject({ lastError: words });
    const [failed] = await history(`subjectType=vm&subjectId=${id}&outcome=failed`);
    expect(failed).toMatchObject({ detail: { reason: words } });
  });

  it("tells an interface the engine refused to plug as refused, without virsh's words", async () => {
    const id = await w.runningVm('plugless');
    await w.call('operator', 'POST', `/virtualMachines/stop/${id}`);
    const created = await w.call('admin', 'POST', '/networks/create', {
      name: 'backend',
      regionId: (await w.order()).regionId,
      cidrBlock: '10.62.0.0/24',
      networkType: 'custom',
    });
    const networkId = (created.body as { data: { id: number } }).data.id;
    await w.server.finishOperations();
    w.server.sim.faults.inject({ kind: 'refuse', action: 'port', message: VIRSH_ERROR });
    const added = await w.call('operator', 'POST', `/virtualMachines/${id}/addNetworkInterfaces`, {
      networkId,
    });
    expect(added.status).toBe(200);
    await w.server.finishOperations();

    const res = await w.call('viewer', 'GET', `/networks/listNetAdapters/${id}`);
    const adapters = (res.body as { data: NetworkAdapter[] }).data;
    expect(adapters[1]).toMatchObject({
      status: 'Error',
      statusMessage: 'The provider refused this operation',
    });
    expectNoEngineWords(JSON.stringify(res.body));
    expectNoEngineWords(await whatTenantsSee(id));
    const op = await lastOperation({ vmId: id });
    expect(logLinesOf(op.id)).toContainEqual(
      expect.objectContaining({ msg: 'operation failed', kind: 'port.attach', cause: VIRSH_ERROR }),
    );
  });
});

describe('a task the engine reports failed in its own words', () => {
  it('is told to tenants as a failure at the provider', async () => {
    const id = await w.runningVm('crashing');
    await w.call('operator', 'POST', `/virtualMachines/stop/${id}`);
    await w.server.finishOperations();
    // A driver double: the engine's fault comes as its own words, as libvirt's and Nova's do.
    const sim = w.server.sim;
    const getServer = sim.getServer.bind(sim);
    vi.spyOn(sim, 'getServer').mockImplementation(async (ref) => {
      const state = await getServer(ref);
      return state?.fault ? { ...state, fault: VIRSH_ERROR } : state;
    });
    sim.faults.inject({ kind: 'fail', action: 'start', message: 'anything' });
    await w.call('operator', 'POST', `/virtualMachines/start/${id}`);
    await w.server.finishOperations();

    const reason = 'The provider could not complete this operation';
    expect(await details(id)).toMatchObject({
      status: 'Stopped',
      statusMessage: `Start failed: ${reason}`,
    });
    const op = await lastOperation({ vmId: id });
    expect(op).toMatchObject({ status: 'failed', lastError: reason });
    expectNoEngineWords(await whatTenantsSee(id));
    expect(logLinesOf(op.id)).toContainEqual(
      expect.objectContaining({ msg: 'operation failed', cause: VIRSH_ERROR }),
    );
  });
});

describe('a refusal at request time', () => {
  it("answers the console's refusal without the engine's words, or with the driver's", async () => {
    const id = await w.runningVm('screenless');
    w.server.sim.faults.inject({ kind: 'refuse', action: 'console', message: VIRSH_ERROR });
    const refused = await w.call('operator', 'GET', `/virtualMachines/getConsole/${id}`);
    expect(refused).toMatchObject({
      status: 409,
      body: { message: 'The provider refused this operation' },
    });
    expectNoEngineWords(JSON.stringify(refused.body));
    expect(log).toContain(VIRSH_ERROR);

    const words = 'The console is available only for a running server';
    w.server.sim.faults.inject({
      kind: 'refuse',
      action: 'console',
      message: words,
      words: 'user',
    });
    expect(await w.call('operator', 'GET', `/virtualMachines/getConsole/${id}`)).toMatchObject({
      status: 409,
      body: { message: words },
    });
  });
});
