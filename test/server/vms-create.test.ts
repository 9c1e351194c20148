import { createPrivateKey, createPublicKey } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isStrongPassword } from '../../src/api/contract/validation';
import { virtualMachines, vmSizePeriods } from '../../server/db/vm-schema';
import { createSecretBox } from '../../server/domain/secrets';
import { operations } from '../../server/jobs/schema';
import { simServers } from '../../server/providers/sim/schema';
import { bearer, signIn } from './support/sign-in';
import { startVmWorld, type VmWorld } from './support/vm-world';

let w: VmWorld;
beforeAll(async () => {
  w = await startVmWorld();
});
afterAll(() => w.close());
beforeEach(() => w.server.sim.faults.clear());

const db = () => w.server.database.db;
const create = async (who: Parameters<VmWorld['call']>[0], body: object) =>
  w.call(who, 'POST', '/virtualMachines/create', body);
const details = async (id: number) => {
  const res = await w.call('admin', 'GET', `/virtualMachines/details/${id}`);
  return (res.body as { data: { status: string; statusMessage: string | null } }).data;
};

describe('POST /virtualMachines/create', () => {
  it('orders one VM: Provisioning at once, Running once the provider has built it', async () => {
    const res = await create('operator', await w.order({ name: 'api-1' }));
    expect(res).toMatchObject({
      status: 200,
      body: { data: { ids: [expect.any(Number)] }, message: 'Virtual machine creation started' },
    });
    const [id] = (res.body as { data: { ids: number[] } }).data.ids;
    expect(await details(id!)).toMatchObject({ status: 'Provisioning' });

    // The provider takes 5 s (test timings); before that the VM still provisions.
    await w.server.reconciler.drain();
    w.server.clock.advance(4_000);
    await w.server.reconciler.drain();
    expect(await details(id!)).toMatchObject({ status: 'Provisioning' });

    await w.server.finishOperations();
    expect(await details(id!)).toMatchObject({ status: 'Running', statusMessage: null });
    const [op] = await db().select().from(operations).where(eq(operations.vmId, id!));
    expect(op).toMatchObject({ kind: 'vm.create', status: 'succeeded', attempts: 1 });
  });

  it('numbers copies name-1 … name-N and builds each at the provider once', async () => {
    const ids = await w.createVms('admin', { name: 'batch', numberOfInstances: 3 });
    expect(ids).toHaveLength(3);
    await w.server.finishOperations();
    const rows = await db()
      .select({
        name: virtualMachines.name,
        status: virtualMachines.status,
        ref: virtualMachines.providerRef,
      })
      .from(virtualMachines)
      .where(eq(virtualMachines.companyId, w.companyId))
      .orderBy(asc(virtualMachines.id));
    const batch = rows.filter((r) => r.name.startsWith('batch'));
    expect(batch.map((r) => [r.name, r.status])).toEqual([
      ['batch-1', 'Running'],
      ['batch-2', 'Running'],
      ['batch-3', 'Running'],
    ]);
    const servers = await db().select({ name: simServers.name }).from(simServers);
    expect(servers.filter((s) => s.name.startsWith('batch'))).toHaveLength(3);
  });

  it('says a password sealed with another APP_SECRET (a restore without it) cannot be read', async () => {
    const id = await w.runningVm('restored');
    const elsewhere = createSecretBox('another-secret-another-secret-another');
    await db()
      .update(virtualMachines)
      .set({ passwordSecret: elsewhere.seal('Sealed-elsewhere-1!') })
      .where(eq(virtualMachines.id, id));
    const res = await w.call('operator', 'GET', `/virtualMachines/getPassword/${id}`);
    expect(res).toMatchObject({
      status: 500,
      body: { message: 'This secret cannot be read on this server. Ask your administrator.' },
    });
  });

  it('generates a strong password and a real SSH key pair, kept encrypted at rest', async () => {
    const id = await w.runningVm('keys');
    const password = await w.call('operator', 'GET', `/virtualMachines/getPassword/${id}`);
    const key = await w.call('operator', 'GET', `/virtualMachines/getAccessKey/${id}`);
    const sshPassword = (password.body as { data: { sshPassword: string } }).data.sshPassword;
    const privateKey = (key.body as { data: { privateKey: string } }).data.privateKey;
    expect(isStrongPassword(sshPassword)).toBe(true);
    expect(privateKey).toMatch(
      /^-----BEGIN OPENSSH PRIVATE KEY-----\n[\s\S]+-----END OPENSSH PRIVATE KEY-----\n$/,
    );

    const [row] = await db().select().from(virtualMachines).where(eq(virtualMachines.id, id));
    expect(row!.passwordSecret).not.toContain(sshPassword);
    expect(row!.privateKeySecret).not.toContain(privateKey.split('\n')[1]);
    expect(row!.publicKey).toMatch(/^ssh-ed25519 AAAA\S+ ubuntu@keys$/);
    // The public key the provider got is the one of the private key the user downloads.
    const [server] = await db()
      .select()
      .from(simServers)
      .where(eq(simServers.ref, row!.providerRef!));
    expect(server!.publicKey).toBe(row!.publicKey);
    const blob = Buffer.from(row!.publicKey!.split(' ')[1]!, 'base64');
    expect(derivedPublicKey(privateKey)).toEqual(blob.subarray(blob.length - 32));
  });

  it('opens a usage period for each VM at its creation', async () => {
    const orderedAt = w.server.clock.now();
    const [id] = await w.createVms('admin', { name: 'metered' });
    await w.server.finishOperations();
    const periods = await db().select().from(vmSizePeriods).where(eq(vmSizePeriods.vmId, id!));
    expect(periods).toEqual([
      expect.objectContaining({
        configurationId: 3,
        startedAt: orderedAt,
        endedAt: null,
      }),
    ]);
  });

  it("ends in Error with the provider's reason when the build fails", async () => {
    w.server.sim.faults.inject({
      kind: 'fail',
      action: 'create',
      message: 'No capacity left on the host',
    });
    const [id] = await w.createVms('admin', { name: 'doomed' });
    await w.server.finishOperations();
    expect(await details(id!)).toMatchObject({
      status: 'Error',
      statusMessage: 'Provisioning failed: No capacity left on the host',
    });
  });

  it('retries while the provider cannot be reached, then builds', async () => {
    w.server.sim.faults.inject({ kind: 'unavailable', action: 'create', times: 2 });
    const [id] = await w.createVms('admin', { name: 'patient' });
    await w.server.finishOperations();
    expect(await details(id!)).toMatchObject({ status: 'Running' });
    const [op] = await db().select().from(operations).where(eq(operations.vmId, id!));
    expect(op).toMatchObject({ status: 'succeeded', attempts: 3 });
  });
});

/**
 * Reads an unencrypted OpenSSH ed25519 private key the way ssh does, and answers the public key
 * its seed derives (so a key whose halves do not belong together fails).
 */
function derivedPublicKey(openssh: string): Buffer {
  const body = Buffer.from(openssh.split('\n').slice(1, -2).join(''), 'base64');
  expect(body.subarray(0, 15).toString()).toBe('openssh-key-v1\0');
  // The private section ends with: string(seed ‖ public key), string(comment), padding.
  const secret = body.lastIndexOf(Buffer.from([0, 0, 0, 64]));
  const seed = body.subarray(secret + 4, secret + 36);
  const pkcs8 = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]);
  const key = createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' });
  return Buffer.from(createPublicKey(key).export({ format: 'jwk' }).x!, 'base64url');
}

describe('who may order VMs', () => {
  it('refuses a Viewer (403) and an order without a team from anyone but an Admin', async () => {
    expect(await create('viewer', await w.order())).toMatchObject({
      status: 403,
      body: { message: 'You do not have permission to do that' },
    });
    expect(await create('manager', await w.order({ teamId: null }))).toMatchObject({
      status: 403,
      body: { message: 'Only Admins can manage VMs without a team' },
    });
    expect(await create('admin', await w.order({ teamId: null, name: 'loose' }))).toMatchObject({
      status: 200,
    });
  });

  it("answers 404 for a team the caller is not in, or another company's", async () => {
    expect(await create('outsider', await w.order())).toMatchObject({
      status: 404,
      body: { message: 'Team not found' },
    });
    expect(await create('admin', await w.order({ teamId: w.other.teamId }))).toMatchObject({
      status: 404,
    });
  });
});

describe('bad orders', () => {
  it("answers 400 naming each missing field with the spec's message", async () => {
    const res = await create('admin', {});
    expect(res.status).toBe(400);
    const fields = (res.body as { errors: { field: string; message: string }[] }).errors;
    expect(fields).toEqual(
      expect.arrayContaining([
        { field: 'regionId', message: 'Please fill in empty fields' },
        { field: 'imageId', message: 'Please fill in empty fields' },
        { field: 'configurationId', message: 'Please fill in empty fields' },
        { field: 'providerId', message: 'Please fill in empty fields' },
        { field: 'name', message: 'VM name is required' },
        { field: 'numberOfInstances', message: 'Please fill in empty fields' },
      ]),
    );
  });

  it.each([0, 11, 2.5, -1])('refuses %s instances', async (numberOfInstances) => {
    expect(await create('admin', await w.order({ numberOfInstances }))).toMatchObject({
      status: 400,
      body: {
        errors: [
          { field: 'numberOfInstances', message: 'Number of copies must be between 1 to 10' },
        ],
      },
    });
  });

  it.each(['bad name', '-lead', 'x'.repeat(64), 'semi;colon', 'nul\u0000'])(
    'refuses the name %j',
    async (name) => {
      const res = await create('admin', await w.order({ name }));
      expect(res).toMatchObject({ status: 400, body: { errors: [{ field: 'name' }] } });
    },
  );

  it('refuses a name too long for numbered copies', async () => {
    expect(
      await create('admin', await w.order({ name: 'n'.repeat(61), numberOfInstances: 2 })),
    ).toMatchObject({
      status: 400,
      body: { errors: [{ field: 'name' }] },
    });
  });

  it('refuses catalogue entries that do not fit together, naming the field', async () => {
    const sin = await w.catalog('sg-sin-1');
    const windows = await w.catalog('us-lax-1', 'windows-2022');
    const cases: [object, string][] = [
      [{ regionId: 9999 }, 'regionId'],
      [{ imageId: sin.imageId }, 'imageId'],
      [{ configurationId: 7 }, 'configurationId'],
      // Windows Micro in Los Angeles: no provider.
      [{ imageId: windows.imageId, configurationId: 1 }, 'providerId'],
      [{ providerId: 9999 }, 'providerId'],
    ];
    for (const [overrides, field] of cases) {
      const res = await create('admin', await w.order(overrides));
      expect(res, JSON.stringify(overrides)).toMatchObject({
        status: 400,
        body: { errors: [{ field }] },
      });
    }
  });

  it('answers 400 for malformed JSON and writes nothing', async () => {
    const before = await db().select().from(virtualMachines);
    const res = await w.server.app.inject({
      method: 'POST',
      url: '/api/v1/virtualMachines/create',
      headers: {
        ...bearer((await signIn(w.server, 'admin@a.test')).token),
        'content-type': 'application/json',
      },
      payload: '{"name": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ errors: [{ field: 'body' }] });
    expect(await db().select().from(virtualMachines)).toEqual(before);
  });
});
