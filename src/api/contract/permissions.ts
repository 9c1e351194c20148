import { z } from './zod';
import { emptyEnvelope, envelope, idSchema } from './envelope';
import { isRoleId, ROLE, teamRoleId, type RoleId } from './roles';

/**
 * What a role lets its holder do with one team and the team's virtual machines. The server enforces
 * these on every endpoint; the console uses them only to hide what would be refused.
 * Company-wide rights (users, creating and deleting teams, VMs without a team) belong to Admins.
 */
export const teamPermissions = [
  'team.view',
  'team.rename',
  'team.members',
  'vm.view',
  'vm.create',
  'vm.operate',
  'vm.edit',
  'vm.resize',
  'vm.delete',
  'vm.move',
] as const;
export type TeamPermission = (typeof teamPermissions)[number];

const viewer: TeamPermission[] = ['team.view', 'vm.view'];
const operator: TeamPermission[] = [...viewer, 'vm.create', 'vm.operate', 'vm.edit'];
const manager: TeamPermission[] = [...teamPermissions];

export const rolePermissions: Record<RoleId, readonly TeamPermission[]> = {
  [ROLE.admin]: teamPermissions,
  [ROLE.manager]: manager,
  [ROLE.operator]: operator,
  [ROLE.viewer]: viewer,
};

/** False for an id that names no role. */
export const roleAllows = (roleId: number, permission: TeamPermission) =>
  isRoleId(roleId) && rolePermissions[roleId].includes(permission);

export const permissionMessages = {
  forbidden: 'You do not have permission to do that',
  adminsOnly: 'Only Admins can do that',
  permissionsAssigned: 'Permissions saved',
} as const;

/** `GET /permissions/list/{teamId}`: who holds which role on the team, and what it grants. */
export const permissionEntry = z.object({
  userId: z.int(),
  name: z.string(),
  email: z.string(),
  roleId: z.int(),
  permissions: z.array(z.enum(teamPermissions)),
});
export type PermissionEntry = z.infer<typeof permissionEntry>;
export const listPermissionsResponse = envelope(
  z.object({ teamId: z.int(), entries: z.array(permissionEntry) }),
);

const id = idSchema;

/** `POST /permissions/assign`: sets the roles of several members of one team at once, all or none. */
export const assignPermissionsBody = z.object({
  teamId: id,
  assignments: z
    .array(z.object({ userId: id, roleId: teamRoleId }))
    .check(z.minLength(1), z.maxLength(500)),
});
export type AssignPermissionsBody = z.input<typeof assignPermissionsBody>;
export const assignPermissionsResponse = emptyEnvelope;
