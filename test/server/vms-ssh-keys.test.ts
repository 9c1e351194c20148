import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sshKeyMessages, type SshKey } from '../../src/api/contract/ssh-keys';
import { vmMessages, type VmDetails } from '../../src/api/contract/vms';
import { sshKeys } from '../../server/db/self-service-schema';
import { virtualMachines } from '../../server/db/vm-schema';
import { simServers } from '../../server/providers/sim/schema';
import { ecdsaKey, ed25519Key } from './support/ssh-key-fixtures';
import { startVmWorld, type VmWorld, type Who } from './support/vm-world';

/**
 * A VM given account keys (`sshKeyIds`) as well as, or instead of, the generated key pair: the
 * provider is asked to authorise every one of them (the sim records them), and a VM without a
 * generated pair has no private key to download.
 */

let w: VmWorld;
let laptop: SshKey;
let desktop: SshKey;
beforeAll(async () => {
  w = await startVmWorld();
  const add = async (name: string, publicKey: string) =>
    (await w.call('operator', 'POST', '/sshKeys/create', { name, publicKey })).body.data as SshKey;
  laptop = await add('Laptop', ed25519Key().publicKey);
  desktop = await add('Desktop', ecdsaKey('P-256'));
}, 60_000);
afterAll(() => w?.close());

const db = () => w.server.database.db;

async function created(who: Who, overrides: object) {
  const res = await w.call(who, 'POST', '/virtualMachines/create', await w.order(overrides));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  await w.server.finishOperations();
  const ids = (res.body as { data: { ids: number[] } }).data.ids;
  return Promise.all(
    ids.map(async (id) => {
      const [vm] = await db().select().from(virtualMachines).where(eq(virtualMachines.id, id));
      const [server] = await db()
        .select()
        .from(simServers)
        .where(eq(simServers.ref, vm!.providerRef!));
      return { id, vm: vm!, server: server! };
    }),
  );
}

const details = async (id: number) =>
  ((await w.call('operator', 'GET', `/virtualMachines/details/${id}`)).body as { data: VmDetails })
    .data;

describe('creating a VM with account keys', () => {
  it('gives the guest the generated key and the chosen keys, on every copy', async () => {
    const copies = await created('operator', {
      name: 'both',
      numberOfInstances: 2,
      sshKeyIds: [desktop.id, laptop.id],
    });
    expect(copies).toHaveLength(2);
    for (const { id, vm, server } of copies) {
      expect(vm.publicKey).toMatch(/^ssh-ed25519 /);
      expect(vm.authorizedKeys).toEqual([desktop.publicKey, laptop.publicKey]);
      expect(server.publicKey).toBe(vm.publicKey);
      expect(server.authorizedKeys).toEqual([vm.publicKey, desktop.publicKey, laptop.publicKey]);
      expect((await details(id)).virtualMachine.hasPrivateKey).toBe(true);
      const key = await w.call('operator', 'GET', `/virtualMachines/getAccessKey/${id}`);
      expect(key.status).toBe(200);
    }
  });

  it('gives only the chosen keys instead of a generated pair: no private key to download', async () => {
    const [{ id, vm, server }] = (await created('operator', {
      name: 'keys-only',
      sshKeyIds: [laptop.id],
      generateKeyPair: false,
    })) as [Awaited<ReturnType<typeof created>>[number]];
    expect(vm).toMatchObject({
      publicKey: null,
      privateKeySecret: null,
      authorizedKeys: [laptop.publicKey],
    });
    expect(server).toMatchObject({ publicKey: null, authorizedKeys: [laptop.publicKey] });
    expect((await details(id)).virtualMachine.hasPrivateKey).toBe(false);
    expect(await w.call('operator', 'GET', `/virtualMachines/getAccessKey/${id}`)).toEqual({
      status: 409,
      body: { data: null, message: vmMessages.noGeneratedKey },
    });
    // The password is there all the same.
    const password = await w.call('operator', 'GET', `/virtualMachines/getPassword/${id}`);
    expect(password.status).toBe(200);
  });

  it('keeps the generated pair alone when no keys are chosen', async () => {
    const [{ vm, server }] = (await created('operator', { name: 'pair-only' })) as [
      Awaited<ReturnType<typeof created>>[number],
    ];
    expect(vm.authorizedKeys).toEqual([]);
    expect(server.authorizedKeys).toEqual([vm.publicKey]);
  });

  it('refuses neither a generated pair nor any key, naming sshKeyIds', async () => {
    const before = await w.state();
    for (const sshKeyIds of [undefined, []]) {
      const res = await w.call(
        'operator',
        'POST',
        '/virtualMachines/create',
        await w.order({ name: 'keyless', generateKeyPair: false, sshKeyIds }),
      );
      expect(res).toMatchObject({
        status: 400,
        body: { errors: [{ field: 'sshKeyIds', message: vmMessages.noKeyChosen }] },
      });
    }
    expect(await w.state()).toBe(before);
  });

  it("refuses another user's, another company's or an unknown key with a 400 on sshKeyIds", async () => {
    const managers = (
      await w.call('manager', 'POST', '/sshKeys/create', {
        name: 'Manager key',
        publicKey: ed25519Key().publicKey,
      })
    ).body.data as SshKey;
    const [foreign] = await db()
      .insert(sshKeys)
      .values({
        userId: w.other.userId,
        companyId: w.other.companyId,
        name: 'Stranger',
        publicKey: ed25519Key().publicKey,
        fingerprint: 'SHA256:stranger',
      })
      .returning({ id: sshKeys.id });
    const before = await w.state();
    for (const id of [managers.id, foreign!.id, 999_999]) {
      // An Admin may not hand out a user's keys either.
      for (const who of ['operator', 'admin'] as const) {
        const res = await w.call(
          who,
          'POST',
          '/virtualMachines/create',
          await w.order({ name: 'borrowed', sshKeyIds: [laptop.id, id] }),
        );
        expect(res).toEqual({
          status: 400,
          body: {
            data: null,
            message: sshKeyMessages.chosenNotFound,
            errors: [{ field: 'sshKeyIds', message: sshKeyMessages.chosenNotFound }],
          },
        });
      }
    }
    expect(await w.state()).toBe(before);
  });

  it('leaves a VM its keys when the account key is deleted afterwards', async () => {
    const extra = (
      await w.call('operator', 'POST', '/sshKeys/create', {
        name: 'Short-lived',
        publicKey: ed25519Key().publicKey,
      })
    ).body.data as SshKey;
    const [{ id }] = (await created('operator', { name: 'kept', sshKeyIds: [extra.id] })) as [
      Awaited<ReturnType<typeof created>>[number],
    ];
    await w.call('operator', 'DELETE', `/sshKeys/delete/${extra.id}`);
    const [vm] = await db().select().from(virtualMachines).where(eq(virtualMachines.id, id));
    expect(vm!.authorizedKeys).toEqual([extra.publicKey]);
  });
});
