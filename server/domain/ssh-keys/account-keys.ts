import { and, eq, inArray } from 'drizzle-orm';
import { sshKeyMessages } from '../../../src/api/contract/ssh-keys';
import type { Db, Tx } from '../../db/client';
import { sshKeys } from '../../db/self-service-schema';
import { badRequest } from '../../http-error';
import type { Caller } from '../tenancy/access';

/**
 * The OpenSSH lines of the caller's own account keys with these ids, in the order given (an id
 * named twice counts once), for a VM being created or reinstalled. An id that is not one of the
 * caller's keys (none such, another user's, another company's) is refused with a 400 on
 * `sshKeyIds`, the same for all three so that it tells nothing about other users' keys.
 */
export async function chosenAccountKeys(
  db: Db | Tx,
  caller: Caller,
  sshKeyIds: number[],
): Promise<string[]> {
  const ids = [...new Set(sshKeyIds)];
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: sshKeys.id, publicKey: sshKeys.publicKey })
    .from(sshKeys)
    .where(
      and(
        inArray(sshKeys.id, ids),
        eq(sshKeys.userId, caller.userId),
        eq(sshKeys.companyId, caller.companyId),
      ),
    );
  const byId = new Map(rows.map((row) => [row.id, row.publicKey]));
  return ids.map((id) => {
    const line = byId.get(id);
    if (line === undefined) throw badRequest(sshKeyMessages.chosenNotFound, 'sshKeyIds');
    return line;
  });
}
