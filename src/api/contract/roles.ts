import { z } from './zod';
import { emptyEnvelope, envelope, idSchema } from './envelope';

/** The fixed role ids (spec: Admin has id 1). Names and info texts come from `GET /roles/userRoles`. */
export const ROLE = { admin: 1, manager: 2, operator: 3, viewer: 4 } as const;
export type RoleId = (typeof ROLE)[keyof typeof ROLE];
export const roleIds = Object.values(ROLE);
export const isRoleId = (id: number): id is RoleId => (roleIds as number[]).includes(id);

export const roleMessages = {
  roleRequired: 'Role is required',
  unknownRole: 'Unknown role',
  adminNotAssignable: 'The Admin role cannot be assigned to a team member',
  adminMembershipFixed: "An Admin's role cannot be changed",
  roleUpdated: 'User role updated',
} as const;

export const role = z.object({ id: z.int(), name: z.string(), info: z.string() });
export type Role = z.infer<typeof role>;
export const rolesResponse = envelope(z.array(role));

const id = idSchema;

/**
 * A role id from JSON or a select value. Not z.coerce: that reads an empty select (null, '') as
 * role 0 ('Unknown role' instead of 'Role is required') and `true` as role 1, Admin.
 */
export const roleIdSchema = z.pipe(
  z.transform((value): unknown =>
    value === null || value === '' ? undefined : typeof value === 'string' ? Number(value) : value,
  ),
  z.number({ error: roleMessages.roleRequired }).check(
    z.int(roleMessages.unknownRole),
    z.refine((value) => isRoleId(value), roleMessages.unknownRole),
  ),
  // zod/mini's checks do not narrow the type: the refinement admits role ids only.
) as z.ZodMiniType<RoleId, unknown>;

/** A per-team role: any role but Admin. */
export const teamRoleId = roleIdSchema.check(
  z.refine((value) => value !== ROLE.admin, roleMessages.adminNotAssignable),
);

export const updateUserRoleForTeamBody = z.object({ teamId: id, userId: id, roleId: teamRoleId });
export type UpdateUserRoleForTeamBody = z.input<typeof updateUserRoleForTeamBody>;
export const updateUserRoleForTeamResponse = emptyEnvelope;
