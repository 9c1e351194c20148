import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTokenMessages } from '../../src/api/contract/api-tokens';
import { resellerMessages } from '../../src/api/contract/reseller';
import { startSuspensionWorld, type SuspensionWorld } from './support/suspension-world';

/**
 * Who may suspend and resume which company: a reseller's staff, its own customers only, with a
 * token that may write. Everyone else is answered as the other reseller paths answer them, and
 * nothing changes: the company stays active, its VMs keep running, its users stay signed in.
 */

let w: SuspensionWorld;
let vmId: number;
let operationsBefore: Awaited<ReturnType<SuspensionWorld['operationsOf']>>;
beforeAll(async () => {
  w = await startSuspensionWorld();
  vmId = await w.runningVm('keeps-running');
  operationsBefore = await w.operationsOf();
}, 60_000);
afterAll(() => w?.close());

const NOT_THERE = { data: null, message: 'Not found' };
const NO_CUSTOMER = { data: null, message: resellerMessages.customerNotFound };
const verbs = ['suspend', 'resume'] as const;

/** Nothing happened to the world's company. */
async function untouched() {
  const details = await w.callAs('staff', 'GET', `/reseller/companies/details/${w.companyId}`);
  expect(details.body.data).toMatchObject({ state: 'active', suspendedAt: null });
  expect(await w.statuses()).toEqual({ 'keeps-running': 'Running' });
  expect(await w.operationsOf()).toEqual(operationsBefore);
  expect((await w.call('admin', 'GET', '/virtualMachines/list')).status).toBe(200);
}

async function tokenOf(call: () => Promise<{ status: number; body: { data: unknown } }>) {
  const res = await call();
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.data as { secret: string }).secret;
}

const newToken = (access: 'read' | 'readWrite') => ({
  name: `suspension ${access}`,
  expiresAt: '2027-01-01T00:00:00Z',
  access,
});

describe('who is not a reseller', () => {
  it("gets 404 on its own company and another, with a session or an API token, even an Admin's", async () => {
    const secret = await tokenOf(() =>
      w.call('admin', 'POST', '/apiTokens/create', newToken('readWrite')),
    );
    for (const verb of verbs) {
      for (const id of [w.companyId, w.other.companyId]) {
        const url = `/reseller/companies/${verb}/${id}`;
        expect(await w.call('admin', 'POST', url), url).toEqual({ status: 404, body: NOT_THERE });
        expect(await w.callWith(secret, 'POST', url), url).toEqual({
          status: 404,
          body: NOT_THERE,
        });
      }
    }
    await untouched();
  });
});

describe("companies that are not the reseller's customers", () => {
  it.each([
    ["another reseller's customer", () => w.other.companyId],
    ["the reseller's own staff company", () => w.resellers.a.staffCompanyId],
    ["another reseller's staff company", () => w.resellers.b.staffCompanyId],
    ['an unknown id', () => 2_000_000_000],
  ])('%s answers 404 Customer not found', async (_label, id) => {
    for (const verb of verbs) {
      expect(await w.reseller('staff', verb, id())).toEqual({ status: 404, body: NO_CUSTOMER });
    }
  });

  it("another reseller's staff gets 404 on this reseller's customer", async () => {
    for (const verb of verbs) {
      expect(await w.reseller('staffB', verb, w.companyId)).toEqual({
        status: 404,
        body: NO_CUSTOMER,
      });
    }
    await untouched();
  });

  it('a malformed id names the field', async () => {
    const res = await w.callAs('staff', 'POST', '/reseller/companies/suspend/abc');
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'id', message: expect.any(String) }]);
  });
});

describe("the reseller user's API tokens", () => {
  it('a read token may neither suspend nor resume', async () => {
    const secret = await tokenOf(() =>
      w.callAs('staff', 'POST', '/apiTokens/create', newToken('read')),
    );
    for (const verb of verbs) {
      expect(
        await w.callWith(secret, 'POST', `/reseller/companies/${verb}/${w.companyId}`),
      ).toEqual({ status: 403, body: { data: null, message: apiTokenMessages.readOnly } });
    }
    await untouched();
  });

  it('a read-write token suspends and resumes', async () => {
    const secret = await tokenOf(() =>
      w.callAs('staff', 'POST', '/apiTokens/create', newToken('readWrite')),
    );
    for (const verb of verbs) {
      const res = await w.callWith(secret, 'POST', `/reseller/companies/${verb}/${w.companyId}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      await w.server.finishOperations();
    }
    // Stopped and started again, by the token's user.
    expect(await w.statuses()).toEqual({ 'keeps-running': 'Running' });
    expect((await w.operationsOf()).filter((op) => op.vmId === vmId).map((op) => op.kind)).toEqual([
      'vm.create',
      'vm.stop',
      'vm.start',
    ]);
  });
});

describe('the API document', () => {
  it('lists both paths, their refusals, and the 403 of a suspended sign-in', async () => {
    const document = (
      await w.server.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })
    ).json() as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    for (const verb of verbs) {
      const operation = document.paths[`/reseller/companies/${verb}/{id}`]?.post;
      expect(Object.keys(operation?.responses ?? {}), verb).toEqual(
        expect.arrayContaining(['200', '403', '404', '409']),
      );
    }
    expect(Object.keys(document.paths['/auth/login']!.post!.responses)).toContain('403');
  });
});
