import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import { vmMessages } from '../../../src/api/contract/vms';
import type { Db, Tx } from '../../db/client';
import { virtualMachines } from '../../db/vm-schema';
import { conflict, HttpError } from '../../http-error';
import { operations } from '../../jobs/schema';
import { teamRoleOf, type Caller } from '../tenancy/access';

/**
 * Whether the caller could see this VM before its deletion, and its delete operation is still
 * under way: then an action on it is refused with 409 ("being deleted") rather than the 404 of a
 * VM that is gone or was never the caller's.
 */
export async function isBeingDeleted(db: Db | Tx, caller: Caller, vmId: number) {
  const [vm] = await db
    .select({ teamId: virtualMachines.teamId })
    .from(virtualMachines)
    .where(
      and(
        eq(virtualMachines.id, vmId),
        eq(virtualMachines.companyId, caller.companyId),
        isNotNull(virtualMachines.deletedAt),
      ),
    );
  if (!vm) return false;
  if (!caller.isAdmin) {
    if (vm.teamId === null || (await teamRoleOf(db, caller, vm.teamId)) === undefined) {
      return false;
    }
  }
  const [open] = await db
    .select({ id: operations.id })
    .from(operations)
    .where(
      and(
        eq(operations.vmId, vmId),
        eq(operations.kind, 'vm.delete'),
        inArray(operations.status, ['pending', 'running']),
      ),
    )
    .limit(1);
  return open !== undefined;
}

/** Runs an action on a VM; its 404 becomes a 409 when the VM is being deleted. */
export async function unlessBeingDeleted<T>(
  db: Db,
  caller: Caller,
  vmId: number,
  action: () => Promise<T>,
): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (
      error instanceof HttpError &&
      error.statusCode === 404 &&
      (await isBeingDeleted(db, caller, vmId))
    ) {
      throw conflict(vmMessages.beingDeleted);
    }
    throw error;
  }
}
