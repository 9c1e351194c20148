import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SSH_KEYS_PER_USER, sshKeyMessages, type SshKey } from '../../src/api/contract/ssh-keys';
import { sshKeys } from '../../server/db/self-service-schema';
import {
  DSA_KEY,
  ecdsaKey,
  ed25519Key,
  fingerprintOf,
  privateKeyText,
  rsaKey,
} from './support/ssh-key-fixtures';
import { startVmWorld, type VmWorld, type Who } from './support/vm-world';

/**
 * A user's own public SSH keys: ed25519, ECDSA and RSA of 2048 bits or more, one OpenSSH line
 * each, with their SHA-256 fingerprint; anything else refused with a 400 on `publicKey` that says
 * what to paste instead. Nobody else sees or deletes them, an Admin included.
 */

let w: VmWorld;
beforeAll(async () => {
  w = await startVmWorld();
}, 60_000);
afterAll(() => w?.close());

const db = () => w.server.database.db;
const add = (who: Who, name: string, publicKey: string) =>
  w.call(who, 'POST', '/sshKeys/create', { name, publicKey });
const list = async (who: Who) => (await w.call(who, 'GET', '/sshKeys/list')).body.data as SshKey[];
/** The 400 (or 409) naming `field` with `message`. */
const refusal = (status: number, field: string, message: string) => ({
  status,
  body: { data: null, message, errors: [{ field, message }] },
});

describe('adding a key', () => {
  it('takes ed25519, ECDSA on the three curves and RSA ≥ 2048, with their fingerprint', async () => {
    const keys = [
      { line: ed25519Key('ann@laptop').publicKey, type: 'ed25519', bits: 256 },
      { line: ecdsaKey('P-256'), type: 'ecdsa', bits: 256 },
      { line: ecdsaKey('P-384'), type: 'ecdsa', bits: 384 },
      { line: ecdsaKey('P-521'), type: 'ecdsa', bits: 521 },
      { line: rsaKey(2048), type: 'rsa', bits: 2048 },
      { line: rsaKey(3072), type: 'rsa', bits: 3072 },
    ];
    for (const [index, key] of keys.entries()) {
      const res = await add('operator', `  Key ${index} `, `\n  ${key.line}  \n`);
      expect(res).toMatchObject({
        status: 200,
        body: {
          message: sshKeyMessages.created,
          data: {
            id: expect.any(Number),
            name: `Key ${index}`,
            type: key.type,
            bits: key.bits,
            fingerprint: fingerprintOf(key.line),
            publicKey: key.line,
            comment: key.line.split(' ')[2],
          },
        },
      });
      expect(res.body.data.fingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    }
    const listed = await list('operator');
    expect(listed.map((key) => key.name)).toEqual(keys.map((_, i) => `Key ${i}`).reverse());
  });

  it('keeps a key without a comment, and stores the line with single spaces', async () => {
    const [type, data] = ed25519Key().publicKey.split(' ');
    const res = await add('manager', 'Bare', `${type}\t ${data}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ comment: null, publicKey: `${type} ${data}` });
  });

  it('refuses what is not an accepted public key, saying what to paste instead', async () => {
    const ed = ed25519Key().publicKey;
    const [type, data] = ed.split(' ') as [string, string];
    const cases: [string, string][] = [
      ['hello world', sshKeyMessages.keyInvalid],
      [data, sshKeyMessages.keyInvalid],
      [`from="10.0.0.1" ${ed}`, sshKeyMessages.keyInvalid],
      [DSA_KEY, sshKeyMessages.keyDsa],
      [rsaKey(1024), sshKeyMessages.keyRsaTooShort],
      [privateKeyText(), sshKeyMessages.keyPrivate],
      [`${ed}\n${ecdsaKey('P-256')}`, sshKeyMessages.keyOneLine],
      [`${type} ${data.slice(0, 40)} cut`, sshKeyMessages.keyDamaged],
      // The data of an ed25519 key, labelled as RSA.
      [`ssh-rsa ${data}`, sshKeyMessages.keyDamaged],
      [`sk-ssh-ed25519@openssh.com ${data}`, sshKeyMessages.keyTypeUnsupported],
      [
        `---- BEGIN SSH2 PUBLIC KEY ----\nComment: "me"\n${data}\n---- END SSH2 PUBLIC KEY ----`,
        sshKeyMessages.keySsh2,
      ],
    ];
    for (const [publicKey, message] of cases) {
      expect(await add('viewer', 'Bad', publicKey), publicKey).toEqual(
        refusal(400, 'publicKey', message),
      );
    }
    const empty = await add('viewer', 'Bad', '   ');
    expect(empty).toMatchObject({ status: 400, body: { errors: [{ field: 'publicKey' }] } });
    expect(await list('viewer')).toEqual([]);
  });

  it('requires a name of at most 100 characters', async () => {
    const key = ed25519Key().publicKey;
    for (const name of ['', '   ', 'x'.repeat(101), 'tab\there']) {
      const res = await add('viewer', name, key);
      expect(res, name).toMatchObject({ status: 400, body: { errors: [{ field: 'name' }] } });
    }
    expect(await list('viewer')).toEqual([]);
  });

  it('refuses the same key twice for a user (whatever its comment), not for another user', async () => {
    const key = ed25519Key('first').publicKey;
    expect((await add('viewer', 'Laptop', key)).status).toBe(200);
    const again = key.replace(/ first$/, ' other-comment');
    expect(await add('viewer', 'Again', again)).toEqual(
      refusal(409, 'publicKey', `${sshKeyMessages.duplicate} (as "Laptop")`),
    );
    expect((await add('outsider', 'Shared laptop', key)).status).toBe(200);
    expect((await list('viewer')).map((k) => k.name)).toEqual(['Laptop']);
  });

  it(`keeps at most ${SSH_KEYS_PER_USER} keys per user`, async () => {
    const userId = w.userIds.outsider;
    const held = (await list('outsider')).length;
    await db()
      .insert(sshKeys)
      .values(
        Array.from({ length: SSH_KEYS_PER_USER - held - 1 }, (_, i) => ({
          userId,
          companyId: w.companyId,
          name: `Filler ${i}`,
          publicKey: ed25519Key().publicKey,
          fingerprint: `SHA256:filler-${i}`,
        })),
      );
    expect((await add('outsider', 'Last one', ed25519Key().publicKey)).status).toBe(200);
    const over = await add('outsider', 'One too many', ed25519Key().publicKey);
    expect(over).toMatchObject({ status: 409, body: { message: sshKeyMessages.tooMany } });
    expect(await list('outsider')).toHaveLength(SSH_KEYS_PER_USER);
  });
});

describe('whose keys', () => {
  it("lists only the caller's own keys: an Admin does not see the others'", async () => {
    const own = await add('operator', 'Mine only', ed25519Key().publicKey);
    const ids = (await list('admin')).map((key) => key.id);
    expect(ids).not.toContain(own.body.data.id);
  });

  it("deletes one's own key, and answers 404 for another user's or company's", async () => {
    const mine = (await add('manager', 'To delete', ed25519Key().publicKey)).body.data as SshKey;
    const theirs = (await add('operator', 'Not yours', ed25519Key().publicKey)).body.data as SshKey;
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
    const notFound = { status: 404, body: { data: null, message: sshKeyMessages.notFound } };
    // The Admin of the company cannot delete a user's key either.
    expect(await w.call('admin', 'DELETE', `/sshKeys/delete/${theirs.id}`)).toEqual(notFound);
    expect(await w.call('manager', 'DELETE', `/sshKeys/delete/${foreign!.id}`)).toEqual(notFound);
    expect(await w.call('manager', 'DELETE', '/sshKeys/delete/999999')).toEqual(notFound);
    expect(await w.call('manager', 'DELETE', `/sshKeys/delete/${mine.id}`)).toEqual({
      status: 200,
      body: { data: null, message: sshKeyMessages.deleted },
    });
    expect((await list('manager')).map((k) => k.id)).not.toContain(mine.id);
    const left = await db().select({ id: sshKeys.id }).from(sshKeys);
    expect(left.map((row) => row.id)).toEqual(expect.arrayContaining([theirs.id, foreign!.id]));
    expect(await w.call('manager', 'DELETE', `/sshKeys/delete/${mine.id}`)).toEqual(notFound);
  });

  it('answers 401 without a session', async () => {
    const res = await w.server.app.inject({ method: 'GET', url: '/api/v1/sshKeys/list' });
    expect(res.statusCode).toBe(401);
  });
});
