import { and, asc, count, eq, exists, ilike, inArray, notExists, sql } from 'drizzle-orm';
import type {
  ListTeamsQuery,
  TeamDetails,
  TeamDetailsQuery,
  TeamPage,
} from '../../../src/api/contract/teams';
import { teamMessages } from '../../../src/api/contract/teams';
import type { Db } from '../../db/client';
import { teamMembers, teams, users } from '../../db/schema';
import { conflict, notFound } from '../../http-error';
import { requireAdmin, requireTeamPermission, teamRoleOf, type Caller } from './access';
import { listTeamMembersPage } from './team-members';
import { isUniqueViolation } from '../../db/errors';
import { userActor } from '../events/actor';
import { recordTeamEvent } from './team-events';
import { boundedCount, containsPattern, keptCount, pageCount } from '../lists/list-paging';

/**
 * The teams of a company: the list with its counts, one team's page, and the team-wide writes.
 * Member writes live in `team-members.ts`. Every query is scoped by the caller's company, so an id
 * of another company behaves exactly like an id that does not exist.
 */

const TEAM_NAME_KEY = 'teams_company_name_key';

/**
 * Runs a write that may give a team a name already used in the company. The unique index decides,
 * so two concurrent writes cannot both win the same name.
 */
async function withUniqueTeamName<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error, TEAM_NAME_KEY)) throw conflict(teamMessages.nameTaken);
    throw error;
  }
}

/** A team's members and VMs, as the triggers keep them. */
function teamCounts(db: Db) {
  return {
    userCount: keptCount(db, 'team_members', teams.id),
    vmCount: keptCount(db, 'team_vms', teams.id),
  };
}

/**
 * One page of the teams the caller sees (every team of the company for an Admin, else the teams
 * they are a member of; of those, only an API token's teams when it is narrowed), with the
 * Unassigned counts. VMs without a team are visible to Admins only.
 */
export async function listTeams(db: Db, caller: Caller, query: ListTeamsQuery): Promise<TeamPage> {
  const isMember = exists(
    db
      .select({ one: sql`1` })
      .from(teamMembers)
      .where(and(eq(teamMembers.teamId, teams.id), eq(teamMembers.userId, caller.userId))),
  );
  const scope = caller.teamScope;
  const where = and(
    eq(teams.companyId, caller.companyId),
    caller.isAdmin || scope?.asAdmin ? undefined : isMember,
    scope ? inArray(teams.id, [...scope.teamIds]) : undefined,
    query.search ? ilike(teams.name, containsPattern(query.search)) : undefined,
  );

  const total =
    query.search || scope
      ? boundedCount(
          db.select({ id: teams.id }).from(teams).where(where),
          (query.page - 1) * query.rowsPerPage,
        )
      : caller.isAdmin
        ? keptCount(db, 'teams', caller.companyId)
        : keptCount(db, 'user_teams', caller.userId);
  const [[counted], data, [loneUsers]] = await Promise.all([
    db
      .select({ total, loneVms: keptCount(db, 'unassigned_vms', caller.companyId) })
      .from(sql`(select 1) as one`),
    db
      .select({
        id: teams.id,
        name: teams.name,
        ...teamCounts(db),
      })
      .from(teams)
      .where(where)
      // The id breaks ties so that paging never shows a row twice or skips one.
      .orderBy(asc(teams.nameKey), asc(teams.id))
      .limit(query.rowsPerPage)
      .offset((query.page - 1) * query.rowsPerPage),
    db
      .select({ n: count() })
      .from(users)
      .where(
        and(
          eq(users.companyId, caller.companyId),
          notExists(
            db
              .select({ one: sql`1` })
              .from(teamMembers)
              .where(eq(teamMembers.userId, users.id)),
          ),
        ),
      ),
  ]);
  return {
    data,
    unassignedUsers: loneUsers?.n ?? 0,
    unassignedVMs: caller.isAdmin ? (counted?.loneVms ?? 0) : 0,
    totalPages: pageCount(counted?.total ?? 0, query.rowsPerPage),
  };
}

/** A team's name and one page of its members; needs `team.view`. */
export async function findTeamDetails(
  db: Db,
  caller: Caller,
  teamId: number,
  query: TeamDetailsQuery,
): Promise<TeamDetails> {
  const yourRoleId = await requireTeamPermission(db, caller, teamId, 'team.view');
  const [team] = await db
    .select({ id: teams.id, name: teams.name, parentTeamId: teams.parentTeamId })
    .from(teams)
    .where(and(eq(teams.id, teamId), eq(teams.companyId, caller.companyId)));
  // Deleted between the check and the read.
  if (!team) throw notFound(teamMessages.notFound);
  const { members, totalPages } = await listTeamMembersPage(db, teamId, query);
  return {
    id: team.id,
    teamName: team.name,
    parentTeamId: team.parentTeamId,
    yourRoleId,
    members,
    totalPages,
  };
}

/** Admins only. The creator is not made a member: Admins see every team anyway. Logs `team.create`. */
export async function createTeam(
  db: Db,
  caller: Caller,
  input: { name: string; parentTeamId?: number | null | undefined; now: Date },
): Promise<number> {
  requireAdmin(caller);
  const { parentTeamId = null } = input;
  return withUniqueTeamName(() =>
    db.transaction(async (tx) => {
      if (parentTeamId !== null) {
        // Locked so that the parent cannot be deleted before this team points at it.
        const [parent] = await tx
          .select({ id: teams.id })
          .from(teams)
          .where(and(eq(teams.id, parentTeamId), eq(teams.companyId, caller.companyId)))
          .for('key share');
        if (!parent) throw notFound(teamMessages.parentNotFound);
      }
      const [team] = await tx
        .insert(teams)
        .values({
          companyId: caller.companyId,
          name: input.name,
          parentTeamId,
          createdAt: input.now,
          updatedAt: input.now,
        })
        .returning({ id: teams.id });
      await recordTeamEvent(tx, {
        companyId: caller.companyId,
        actor: await userActor(tx, caller.userId),
        team: { id: team!.id, name: input.name },
        action: 'team.create',
        at: input.now,
      });
      return team!.id;
    }),
  );
}

/**
 * Needs `team.rename`. Renaming a team to its own name (in any case) is not a conflict. Logs
 * `team.rename` under the new name, unless the name did not change at all.
 */
export async function renameTeam(
  db: Db,
  caller: Caller,
  input: { teamId: number; name: string; now: Date },
): Promise<void> {
  await withUniqueTeamName(() =>
    db.transaction(async (tx) => {
      await requireTeamPermission(tx, caller, input.teamId, 'team.rename');
      const where = and(eq(teams.id, input.teamId), eq(teams.companyId, caller.companyId));
      // Locked: a concurrent rename must not make this event's `from` wrong.
      const [before] = await tx.select({ name: teams.name }).from(teams).where(where).for('update');
      if (!before) throw notFound(teamMessages.notFound);
      await tx.update(teams).set({ name: input.name, updatedAt: input.now }).where(where);
      if (before.name === input.name) return;
      await recordTeamEvent(tx, {
        companyId: caller.companyId,
        actor: await userActor(tx, caller.userId),
        team: { id: input.teamId, name: input.name },
        action: 'team.rename',
        detail: { from: before.name, to: input.name },
        at: input.now,
      });
    }),
  );
}

/**
 * A team the caller cannot see is 404 before the Admin rule answers 403. The foreign keys do the
 * rest in the same statement: memberships go, the team's VMs become unassigned and its child teams
 * lose their parent. Logs `team.delete` alone: its members' removal goes without saying.
 */
export async function deleteTeam(
  db: Db,
  caller: Caller,
  input: { teamId: number; now: Date },
): Promise<void> {
  const { teamId } = input;
  await db.transaction(async (tx) => {
    if ((await teamRoleOf(tx, caller, teamId)) === undefined) {
      throw notFound(teamMessages.notFound);
    }
    requireAdmin(caller);
    const deleted = await tx
      .delete(teams)
      .where(and(eq(teams.id, teamId), eq(teams.companyId, caller.companyId)))
      .returning({ id: teams.id, name: teams.name });
    if (!deleted[0]) throw notFound(teamMessages.notFound);
    await recordTeamEvent(tx, {
      companyId: caller.companyId,
      actor: await userActor(tx, caller.userId),
      team: deleted[0],
      action: 'team.delete',
      at: input.now,
    });
  });
}
