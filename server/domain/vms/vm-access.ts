import { and, eq, isNull } from 'drizzle-orm';
import {
  permissionMessages,
  roleAllows,
  type TeamPermission,
} from '../../../src/api/contract/permissions';
import { ROLE, type RoleId } from '../../../src/api/contract/roles';
import { vmMessages } from '../../../src/api/contract/vms';
import type { Db, Tx } from '../../db/client';
import { virtualMachines } from '../../db/vm-schema';
import { forbidden, notFound } from '../../http-error';
import { teamRoleOf, type Caller } from '../tenancy/access';

export type VmRecord = typeof virtualMachines.$inferSelect;

/**
 * A VM the caller may see, with the caller's role for it: Admins see every VM of the company;
 * others see the VMs of their teams. Anything else answers 404, exactly like an id that does not
 * exist. With `lock`, the row stays locked until the transaction ends, so a status check and the
 * change it allows cannot interleave with another request's.
 */
export async function findVisibleVm(
  db: Db | Tx,
  caller: Caller,
  vmId: number,
  options: { lock?: boolean } = {},
): Promise<{ vm: VmRecord; roleId: RoleId }> {
  const query = db
    .select()
    .from(virtualMachines)
    .where(
      and(
        eq(virtualMachines.id, vmId),
        eq(virtualMachines.companyId, caller.companyId),
        isNull(virtualMachines.deletedAt),
      ),
    );
  const [vm] = options.lock ? await query.for('update') : await query;
  if (!vm) throw notFound(vmMessages.notFound);
  if (caller.isAdmin) return { vm, roleId: ROLE.admin };
  const roleId = vm.teamId === null ? undefined : await teamRoleOf(db, caller, vm.teamId);
  if (roleId === undefined) throw notFound(vmMessages.notFound);
  return { vm, roleId };
}

/** As findVisibleVm, and 403 when the caller's role does not allow the action. */
export async function requireVmPermission(
  db: Db | Tx,
  caller: Caller,
  vmId: number,
  permission: TeamPermission,
  options: { lock?: boolean } = {},
) {
  const found = await findVisibleVm(db, caller, vmId, options);
  if (!roleAllows(found.roleId, permission)) throw forbidden(permissionMessages.forbidden);
  return found;
}
