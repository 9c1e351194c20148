import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resellerMessages } from '../../src/api/contract/reseller';
import { startSuspensionWorld, type SuspensionWorld } from './support/suspension-world';

/**
 * What is under way when a customer is suspended: the reconciler finishes it without undoing the
 * suspension, a resume waits for the stops, and what an API token holds open closes at once.
 */

let w: SuspensionWorld;
beforeAll(async () => {
  w = await startSuspensionWorld();
}, 60_000);
afterAll(() => w?.close());

const suspend = () => w.reseller('staff', 'suspend', w.companyId);
const resume = () => w.reseller('staff', 'resume', w.companyId);

/** Who asked for each operation on the VM, in order (`System` for the reconciler's own). */
const askedFor = async (vmId: number) =>
  (await w.operationsOf())
    .filter((op) => op.vmId === vmId)
    .map((op) => `${op.kind} by ${op.requestedBy?.name} ${op.status}`);

describe('a start under way when the company is suspended', () => {
  let vmId: number;

  beforeAll(async () => {
    vmId = await w.runningVm('late');
    await w.call('admin', 'POST', `/virtualMachines/stop/${vmId}`);
    await w.server.finishOperations();
    // Asked for just before the suspension; the reconciler has not run it yet.
    expect((await w.call('admin', 'POST', `/virtualMachines/start/${vmId}`)).status).toBe(200);
    expect((await suspend()).status).toBe(200);
  });

  it('ends with the VM stopped: the reconciler stops what it started, in the system’s name', async () => {
    expect(await w.statuses()).toEqual({ late: 'Starting' });
    await w.server.finishOperations();
    expect(await w.statuses()).toEqual({ late: 'Stopped' });
    expect((await askedFor(vmId)).slice(-2)).toEqual([
      'vm.start by Ada Admin succeeded',
      'vm.stop by System succeeded',
    ]);
  });

  it('is started again on resume: its user wanted it running', async () => {
    expect((await resume()).status).toBe(200);
    await w.server.finishOperations();
    expect(await w.statuses()).toEqual({ late: 'Running' });
    expect((await askedFor(vmId)).at(-1)).toBe('vm.start by Rita Reseller succeeded');
  });
});

describe('resuming while the stops are under way', () => {
  it('answers 409 until they have ended, then resumes', async () => {
    await w.signInAgain();
    expect(await w.statuses()).toEqual({ late: 'Running' });
    expect((await suspend()).status).toBe(200);
    expect(await resume()).toEqual({
      status: 409,
      body: { data: null, message: resellerMessages.vmsChanging },
    });
    const details = await w.callAs('staff', 'GET', `/reseller/companies/details/${w.companyId}`);
    expect(details.body.data).toMatchObject({ state: 'suspended' });

    await w.server.finishOperations();
    expect((await resume()).status).toBe(200);
    await w.server.finishOperations();
    expect(await w.statuses()).toEqual({ late: 'Running' });
  });
});

describe("an API token's live event stream", () => {
  it('ends at once when the company is suspended, and the token cannot open another', async () => {
    await w.signInAgain();
    const created = await w.call('viewer', 'POST', '/apiTokens/create', {
      name: 'Watcher',
      expiresAt: '2027-01-01T00:00:00Z',
      access: 'read',
    });
    const { secret } = created.body.data as { secret: string };
    const open = () =>
      new Promise<http.IncomingMessage>((resolve, reject) => {
        http
          .get(`${w.baseUrl}/api/v1/events`, {
            agent: false,
            headers: { authorization: `Bearer ${secret}`, accept: 'text/event-stream' },
          })
          .on('response', resolve)
          .on('error', reject);
      });
    const stream = await open();
    expect(stream.statusCode).toBe(200);
    const ended = new Promise<void>((resolve) => stream.on('close', resolve));
    stream.resume();

    expect((await suspend()).status).toBe(200);
    // Well before the next heartbeat's check (15 s): the suspension's own event ends it.
    const inTime = await Promise.race([
      ended.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 3_000)),
    ]);
    expect(inTime).toBe(true);
    const again = await open();
    expect(again.statusCode).toBe(403);
    again.resume();

    await w.server.finishOperations();
    expect((await resume()).status).toBe(200);
    const resumed = await open();
    expect(resumed.statusCode).toBe(200);
    resumed.destroy();
    await w.server.finishOperations();
  });
});
