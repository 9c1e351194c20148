import { and, asc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { rolePermissions, type PermissionEntry } from '../../../src/api/contract/permissions';
import { ROLE, isRoleId, roleMessages, type Role } from '../../../src/api/contract/roles';
import { teamMessages, type TeamMember } from '../../../src/api/contract/teams';
import type { Db, Tx } from '../../db/client';
import { roles, teamMembers, teams, userDisplayName, users } from '../../db/schema';
import { conflict, forbidden, notFound } from '../../http-error';
import { requireTeamPermission, type Caller } from './access';
import { userActor } from '../events/actor';
import { recordMembership, recordRoleChanges, roleNamer } from './team-events';
import {
  boundedCount,
  containsPattern,
  keptCount,
  oneOf,
  pageWithTotal,
} from '../lists/list-paging';

/**
 * Who is in a team and with which role: the member lists, adding and removing members, and role
 * changes. The caller's right on the team is checked inside the same transaction as the write,
 * and the change is logged (`team.member.*`, the team as the subject) in it too.
 */

const memberName = sql<string>`${userDisplayName()}`;
/** In natural order, by the key the database keeps of the same name. */
const byName = [asc(users.nameKey), asc(users.id)];

const memberColumns = {
  id: users.id,
  name: memberName,
  email: users.email,
  roleId: teamMembers.roleId,
};

function membersOf(teamId: number, search = ''): SQL | undefined {
  const pattern = containsPattern(search);
  return and(
    eq(teamMembers.teamId, teamId),
    search ? or(ilike(memberName, pattern), ilike(users.email, pattern)) : undefined,
  );
}

/** One page of a team's members, searched on name or address. The caller has been checked. */
export async function listTeamMembersPage(
  db: Db,
  teamId: number,
  query: { page: number; rowsPerPage: number; search: string },
): Promise<{ members: TeamMember[]; totalPages: number }> {
  const where = membersOf(teamId, query.search);
  const offset = (query.page - 1) * query.rowsPerPage;
  // A function: query builders change in place, and the count and the page each need their own.
  const matching = () =>
    db
      .select({ userId: teamMembers.userId })
      .from(teamMembers)
      .innerJoin(users, eq(users.id, teamMembers.userId))
      .where(where);
  const total = query.search
    ? boundedCount(matching(), offset)
    : keptCount(db, 'team_members', teamId);
  const ids = matching()
    .orderBy(...byName)
    .limit(query.rowsPerPage)
    .offset(offset);
  const rows = await db
    .select({ total, ...memberColumns })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(and(eq(teamMembers.teamId, teamId), oneOf(teamMembers.userId, ids)))
    .orderBy(...byName);
  const { data: members, totalPages } = await pageWithTotal(db, rows, total, query.rowsPerPage);
  return { members, totalPages };
}

/** Every member of a team with the permissions of their role; needs `team.view`. */
export async function listTeamPermissions(
  db: Db,
  caller: Caller,
  teamId: number,
): Promise<PermissionEntry[]> {
  await requireTeamPermission(db, caller, teamId, 'team.view');
  const rows = await db
    .select(memberColumns)
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(membersOf(teamId))
    .orderBy(...byName);
  return rows.map(({ id, roleId, ...row }) => ({
    userId: id,
    ...row,
    roleId,
    permissions: isRoleId(roleId) ? [...rolePermissions[roleId]] : [],
  }));
}

/** The fixed roles, as the migration seeded them. */
export function listRoles(db: Db): Promise<Role[]> {
  return db
    .select({ id: roles.id, name: roles.name, info: roles.info })
    .from(roles)
    .orderBy(asc(roles.id));
}

/**
 * Holds the team row (key share) until the transaction ends, so that a concurrent delete waits
 * instead of breaking the membership write's foreign key. Answers the team, for the log.
 */
async function lockTeam(tx: Tx, caller: Caller, teamId: number) {
  const [team] = await tx
    .select({ id: teams.id, name: teams.name })
    .from(teams)
    .where(and(eq(teams.id, teamId), eq(teams.companyId, caller.companyId)))
    .for('key share');
  return team;
}

/**
 * Needs `team.members`. The user must belong to the caller's company. An Admin user always joins
 * with the Admin role; anybody else with the role asked, or Viewer.
 */
export async function addTeamMember(
  db: Db,
  caller: Caller,
  input: { teamId: number; userId: number; roleId?: number | undefined; now: Date },
): Promise<void> {
  await db.transaction(async (tx) => {
    const team = await lockTeam(tx, caller, input.teamId);
    await requireTeamPermission(tx, caller, input.teamId, 'team.members');
    const [user] = await tx
      .select({ id: users.id, isAdmin: users.isAdmin, name: memberName })
      .from(users)
      .where(and(eq(users.id, input.userId), eq(users.companyId, caller.companyId)))
      .for('key share');
    if (!user) throw notFound(teamMessages.userNotFound);
    const roleId = user.isAdmin ? ROLE.admin : (input.roleId ?? ROLE.viewer);
    const added = await tx
      .insert(teamMembers)
      .values({ teamId: input.teamId, userId: user.id, roleId })
      .onConflictDoNothing()
      .returning({ userId: teamMembers.userId });
    if (added.length === 0) throw conflict(teamMessages.alreadyMember);
    const roleName = await roleNamer(tx);
    await recordMembership(tx, {
      companyId: caller.companyId,
      actor: await userActor(tx, caller.userId),
      action: 'team.member.add',
      // Found: requireTeamPermission answered 404 otherwise.
      team: team!,
      member: { userId: user.id, userName: user.name, role: roleName(roleId) },
      at: input.now,
    });
  });
}

/** Needs `team.members`. An Admin's membership may go too; only its role is fixed. */
export async function removeTeamMember(
  db: Db,
  caller: Caller,
  input: { teamId: number; userId: number; now: Date },
): Promise<void> {
  await db.transaction(async (tx) => {
    await requireTeamPermission(tx, caller, input.teamId, 'team.members');
    const removed = await tx
      .delete(teamMembers)
      .where(and(eq(teamMembers.teamId, input.teamId), eq(teamMembers.userId, input.userId)))
      .returning({ userId: teamMembers.userId, roleId: teamMembers.roleId });
    if (!removed[0]) throw notFound(teamMessages.notMember);
    const [names] = await tx
      .select({ team: teams.name, user: memberName })
      .from(teams)
      .innerJoin(users, eq(users.id, input.userId))
      .where(eq(teams.id, input.teamId));
    const roleName = await roleNamer(tx);
    await recordMembership(tx, {
      companyId: caller.companyId,
      actor: await userActor(tx, caller.userId),
      action: 'team.member.remove',
      team: { id: input.teamId, name: names!.team },
      member: { userId: input.userId, userName: names!.user, role: roleName(removed[0].roleId) },
      at: input.now,
    });
  });
}

/**
 * Needs `team.members`. Sets the roles of several members at once, all or none: every user must be
 * a member and none may hold the fixed Admin role. A user named twice gets the last role given.
 * Logs `team.member.role` for each member whose role changed.
 */
export async function assignTeamRoles(
  db: Db,
  caller: Caller,
  teamId: number,
  assignments: { userId: number; roleId: number }[],
  now: Date,
): Promise<void> {
  const wanted = new Map(assignments.map(({ userId, roleId }) => [userId, roleId]));
  const userIds = [...wanted.keys()];
  await db.transaction(async (tx) => {
    await requireTeamPermission(tx, caller, teamId, 'team.members');
    const members = await tx
      .select({ userId: teamMembers.userId, roleId: teamMembers.roleId, name: memberName })
      .from(teamMembers)
      .innerJoin(users, eq(users.id, teamMembers.userId))
      .where(and(eq(teamMembers.teamId, teamId), inArray(teamMembers.userId, userIds)))
      .for('update', { of: teamMembers });
    if (members.length !== userIds.length) throw notFound(teamMessages.notMember);
    if (members.some((member) => member.roleId === ROLE.admin)) {
      throw forbidden(roleMessages.adminMembershipFixed);
    }
    const newRole = sql.join(
      [
        sql`case ${teamMembers.userId}`,
        ...userIds.map((userId) => sql`when ${userId}::int then ${wanted.get(userId)}::int`),
        sql`end`,
      ],
      sql` `,
    );
    await tx
      .update(teamMembers)
      .set({ roleId: newRole })
      .where(and(eq(teamMembers.teamId, teamId), inArray(teamMembers.userId, userIds)));
    await recordRoleChanges(tx, caller, { teamId, members, wanted, now });
  });
}

/** One member's role: `assignTeamRoles` with a single assignment. */
export const setTeamMemberRole = (
  db: Db,
  caller: Caller,
  input: { teamId: number; userId: number; roleId: number; now: Date },
) =>
  assignTeamRoles(
    db,
    caller,
    input.teamId,
    [{ userId: input.userId, roleId: input.roleId }],
    input.now,
  );
