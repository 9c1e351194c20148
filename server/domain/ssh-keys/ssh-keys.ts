import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import { SSH_KEYS_PER_USER, sshKeyMessages, type SshKey } from '../../../src/api/contract/ssh-keys';
import type { Db, Tx } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { users } from '../../db/schema';
import { sshKeys } from '../../db/self-service-schema';
import { conflict, HttpError, notFound } from '../../http-error';
import type { Caller } from '../tenancy/access';
import { readPublicKey } from './public-key';

const FINGERPRINT_UNIQUE_INDEX = 'ssh_keys_user_fingerprint_key';

/** Only their user sees and uses their keys: an Admin does not see the others'. */
const ownedBy = (caller: Caller) =>
  and(eq(sshKeys.userId, caller.userId), eq(sshKeys.companyId, caller.companyId));

type KeyRow = Pick<typeof sshKeys.$inferSelect, 'id' | 'name' | 'publicKey' | 'createdAt'>;

const toSshKey = (row: KeyRow): SshKey => {
  const { type, bits, fingerprint, comment } = readPublicKey(row.publicKey);
  return {
    id: row.id,
    name: row.name,
    type,
    bits,
    fingerprint,
    comment,
    publicKey: row.publicKey,
    createdAt: row.createdAt,
  };
};

async function readKeys(db: Db | Tx, caller: Caller, where?: SQL): Promise<SshKey[]> {
  const rows = await db
    .select({
      id: sshKeys.id,
      name: sshKeys.name,
      publicKey: sshKeys.publicKey,
      createdAt: sshKeys.createdAt,
    })
    .from(sshKeys)
    .where(and(ownedBy(caller), where))
    .orderBy(desc(sshKeys.createdAt), desc(sshKeys.id));
  return rows.map(toSshKey);
}

/** The caller's keys, newest first. */
export const listSshKeys = (db: Db, caller: Caller) => readKeys(db, caller);

/**
 * Adds a key for the caller: an accepted OpenSSH public key (`readPublicKey`), not one they have
 * already (409), and no more than `SSH_KEYS_PER_USER` of them (409).
 */
export async function createSshKey(
  db: Db,
  caller: Caller,
  input: { name: string; publicKey: string },
  now: Date,
): Promise<SshKey> {
  const key = readPublicKey(input.publicKey);
  try {
    return await db.transaction(async (tx) => {
      // The user's row, locked, makes two adds at once count one after the other.
      await tx
        .select({ id: users.id })
        .from(users)
        .where(eq(users.id, caller.userId))
        .for('update');
      const [held] = await tx.select({ n: count() }).from(sshKeys).where(ownedBy(caller));
      if ((held?.n ?? 0) >= SSH_KEYS_PER_USER) throw conflict(sshKeyMessages.tooMany);
      const [same] = await tx
        .select({ name: sshKeys.name })
        .from(sshKeys)
        .where(and(ownedBy(caller), eq(sshKeys.fingerprint, key.fingerprint)));
      if (same) throw duplicate(same.name);
      const [created] = await tx
        .insert(sshKeys)
        .values({
          userId: caller.userId,
          companyId: caller.companyId,
          name: input.name,
          publicKey: key.line,
          fingerprint: key.fingerprint,
          createdAt: now,
        })
        .returning({ id: sshKeys.id });
      return (await readKeys(tx, caller, eq(sshKeys.id, created!.id)))[0]!;
    });
  } catch (error) {
    if (isUniqueViolation(error, FINGERPRINT_UNIQUE_INDEX)) throw duplicate();
    throw error;
  }
}

const duplicate = (name?: string) =>
  new HttpError(
    409,
    name ? `${sshKeyMessages.duplicate} (as "${name}")` : sshKeyMessages.duplicate,
    'publicKey',
  );

/** Deletes one of the caller's keys; anyone else's answers 404, as a key that does not exist. */
export async function deleteSshKey(db: Db, caller: Caller, id: number): Promise<void> {
  const deleted = await db
    .delete(sshKeys)
    .where(and(eq(sshKeys.id, id), ownedBy(caller)))
    .returning({ id: sshKeys.id });
  if (deleted.length === 0) throw notFound(sshKeyMessages.notFound);
}
