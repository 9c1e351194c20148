import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import {
  permissionMessages,
  roleAllows,
  type TeamPermission,
} from '../../../src/api/contract/permissions';
import { ROLE, isRoleId, type RoleId } from '../../../src/api/contract/roles';
import { teamMessages } from '../../../src/api/contract/teams';
import type { Db, Tx } from '../../db/client';
import { preparedOnce } from '../../db/prepared';
import { teamMembers, teams } from '../../db/schema';
import { forbidden, notFound } from '../../http-error';
import type { SessionCaller } from '../identity/sessions';

/**
 * Who may do what (ARCHITECTURE.md "Tenancy and access"; the matrix is in the README and in
 * `src/api/contract/permissions.ts`). A team the caller cannot see answers 404 exactly like a team
 * that does not exist; a visible team whose role does not allow the action answers 403.
 */

/**
 * What the access rules need to know about the caller. `teamScope`: an API token narrowed to some
 * teams sees nothing of the others (and `isAdmin` is false for it, whatever its user is).
 */
export type Caller = Pick<SessionCaller, 'userId' | 'companyId' | 'isAdmin'> &
  Partial<Pick<SessionCaller, 'teamScope'>>;

export function requireAdmin(
  caller: Caller,
  message: string = permissionMessages.adminsOnly,
): void {
  if (!caller.isAdmin) throw forbidden(message);
}

/** The caller's role on a team of their company: Admin for Admins, else their membership's role. */
export async function teamRoleOf(
  db: Db | Tx,
  caller: Caller,
  teamId: number,
): Promise<RoleId | undefined> {
  const [row] = await db
    .select({ roleId: teamMembers.roleId })
    .from(teams)
    .leftJoin(
      teamMembers,
      and(eq(teamMembers.teamId, teams.id), eq(teamMembers.userId, caller.userId)),
    )
    .where(and(eq(teams.id, teamId), eq(teams.companyId, caller.companyId)));
  if (!row) return undefined;
  const scope = caller.teamScope;
  if (scope && !scope.teamIds.includes(teamId)) return undefined;
  if (caller.isAdmin || scope?.asAdmin) return ROLE.admin;
  return row.roleId !== null && isRoleId(row.roleId) ? row.roleId : undefined;
}

/** Resolves the caller's role on the team or throws 404 (not visible) / 403 (not allowed). */
export async function requireTeamPermission(
  db: Db | Tx,
  caller: Caller,
  teamId: number,
  permission: TeamPermission,
): Promise<RoleId> {
  const roleId = await teamRoleOf(db, caller, teamId);
  if (roleId === undefined) throw notFound(teamMessages.notFound);
  if (!roleAllows(roleId, permission)) throw forbidden(permissionMessages.forbidden);
  return roleId;
}

/**
 * The teams whose resources the caller may see: every team for an Admin (`'all'`, which also
 * covers resources without a team), else the teams they are a member of.
 */
export async function visibleTeamIds(db: Db | Tx, caller: Caller): Promise<number[] | 'all'> {
  if (caller.isAdmin) return 'all';
  const scope = caller.teamScope;
  if (scope) {
    const teamIds = [...scope.teamIds];
    const rows = await db
      .select({ teamId: teams.id })
      .from(teams)
      .leftJoin(
        teamMembers,
        and(eq(teamMembers.teamId, teams.id), eq(teamMembers.userId, caller.userId)),
      )
      .where(
        and(
          eq(teams.companyId, caller.companyId),
          inArray(teams.id, teamIds),
          scope.asAdmin ? undefined : isNotNull(teamMembers.userId),
        ),
      );
    return rows.map((row) => row.teamId);
  }
  const rows = await preparedOnce(db, 'visible-teams', (name) =>
    db
      .select({ teamId: teamMembers.teamId })
      .from(teamMembers)
      .innerJoin(teams, eq(teams.id, teamMembers.teamId))
      .where(
        and(
          eq(teamMembers.userId, sql.placeholder('userId')),
          eq(teams.companyId, sql.placeholder('companyId')),
        ),
      )
      .prepare(name),
  ).execute({ userId: caller.userId, companyId: caller.companyId });
  return rows.map((row) => row.teamId);
}
