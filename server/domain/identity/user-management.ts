import { and, eq, inArray } from 'drizzle-orm';
import { permissionMessages } from '../../../src/api/contract/permissions';
import { ROLE, type RoleId } from '../../../src/api/contract/roles';
import { userMessages } from '../../../src/api/contract/users';
import type { Tx } from '../../db/client';
import { companies, teamMembers, teams, users } from '../../db/schema';
import { conflict, forbidden, HttpError, notFound } from '../../http-error';
import type { ApiDeps } from '../../routes/deps';
import { requireAdmin, type Caller } from '../tenancy/access';
import { sendActivationLink } from './account-activation';
import { isUniqueViolation } from '../../db/errors';
import { userActor } from '../events/actor';
import { recordEvent } from '../events/record';
import { recordMembership, roleNamer, userName } from '../tenancy/team-events';

/**
 * Changes to the company's users: Admins invite (create) and delete them; a user renames themself
 * or is renamed by an Admin. Every statement is scoped by the caller's company, so another
 * company's ids behave like ids that do not exist.
 */

type Deps = Pick<ApiDeps, 'db' | 'clock' | 'config' | 'mailer' | 'background'>;

const EMAIL_UNIQUE_INDEX = 'users_email_key';

export interface NewUser {
  email: string;
  roleId: RoleId;
  teamIds: number[];
}

/**
 * Creates an account waiting for activation, with its team memberships, in one transaction; the
 * invitation (an activation link) is e-mailed once the rows are committed. An unknown team, or a
 * team of another company, answers 404 naming `teamIds` and creates nothing. Logs `user.invite`,
 * and `team.member.add` in each team, whose members see only their teams' events.
 */
export async function inviteUser(
  deps: Deps,
  caller: Caller,
  input: NewUser,
  /** The host the Admin asked on: the link goes to it when it is their reseller's domain. */
  requestHost?: string,
): Promise<number> {
  requireAdmin(caller);
  const teamIds = [...new Set(input.teamIds)];
  const isAdmin = input.roleId === ROLE.admin;
  const now = deps.clock.now();
  let id: number;
  try {
    id = await deps.db.transaction(async (tx) => {
      const found =
        teamIds.length === 0
          ? []
          : await tx
              .select({ id: teams.id, name: teams.name })
              .from(teams)
              .where(and(eq(teams.companyId, caller.companyId), inArray(teams.id, teamIds)))
              // Locked so that no team can be deleted before the memberships point at it.
              .for('key share');
      if (found.length !== teamIds.length) {
        throw new HttpError(404, userMessages.teamNotFound, 'teamIds');
      }
      const [company] = await tx
        .select({ isResellerStaff: companies.isResellerStaff })
        .from(companies)
        .where(eq(companies.id, caller.companyId));
      const [user] = await tx
        .insert(users)
        .values({
          companyId: caller.companyId,
          email: input.email,
          isAdmin,
          isReseller: company?.isResellerStaff ?? false,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: users.id });
      const userId = user!.id;
      // An Admin's role is fixed: each of their memberships carries the Admin role.
      const roleId = isAdmin ? ROLE.admin : input.roleId;
      if (teamIds.length > 0) {
        await tx
          .insert(teamMembers)
          .values(teamIds.map((teamId) => ({ teamId, userId, roleId, createdAt: now })));
      }
      await recordInvitation(tx, caller, { userId, email: input.email, roleId, teams: found, now });
      return userId;
    });
  } catch (error) {
    // Two invitations of one address at once: the unique index decides, not a prior lookup.
    if (isUniqueViolation(error, EMAIL_UNIQUE_INDEX)) throw conflict(userMessages.emailTaken);
    throw error;
  }
  deps.background.run('invitation e-mail', () =>
    sendActivationLink(deps, input.email, requestHost),
  );
  return id;
}

async function recordInvitation(
  tx: Tx,
  caller: Caller,
  input: {
    userId: number;
    email: string;
    roleId: number;
    teams: { id: number; name: string }[];
    now: Date;
  },
) {
  const actor = await userActor(tx, caller.userId);
  const roleName = await roleNamer(tx);
  const { companyId } = caller;
  await recordEvent(tx, {
    companyId,
    actor,
    subject: { type: 'user', id: input.userId, name: input.email },
    action: 'user.invite',
    outcome: 'succeeded',
    detail: { email: input.email, role: roleName(input.roleId) },
    at: input.now,
  });
  const member = { userId: input.userId, userName: input.email, role: roleName(input.roleId) };
  for (const team of input.teams) {
    await recordMembership(tx, {
      companyId,
      actor,
      action: 'team.member.add',
      team,
      member,
      at: input.now,
    });
  }
}

/** The caller renames themself; an Admin may rename any user of the company. */
export async function editUserNames(
  deps: Pick<Deps, 'db' | 'clock'>,
  caller: Caller,
  input: { id: number; firstName: string; lastName: string },
): Promise<void> {
  if (!caller.isAdmin && caller.userId !== input.id) throw forbidden(permissionMessages.forbidden);
  const updated = await deps.db
    .update(users)
    .set({ firstName: input.firstName, lastName: input.lastName, updatedAt: deps.clock.now() })
    .where(and(eq(users.id, input.id), eq(users.companyId, caller.companyId)))
    .returning({ id: users.id });
  if (updated.length === 0) throw notFound(userMessages.notFound);
}

/**
 * Deletes a user of the company. Sessions, e-mailed tokens and team memberships go with the row
 * (ON DELETE CASCADE), so the user's sessions stop working at once. Logs `user.delete`, and
 * `team.member.remove` in each team the user was in, for that team's members.
 */
export async function deleteUser(
  deps: Pick<Deps, 'db' | 'clock'>,
  caller: Caller,
  userId: number,
): Promise<void> {
  requireAdmin(caller);
  if (userId === caller.userId) throw forbidden(userMessages.cannotDeleteSelf);
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const [deleted] = await tx
      .select({ email: users.email, firstName: users.firstName, lastName: users.lastName })
      .from(users)
      .where(and(eq(users.id, userId), eq(users.companyId, caller.companyId)))
      // Locked so that no membership is added between the read below and the delete.
      .for('update');
    if (!deleted) throw notFound(userMessages.notFound);
    // Read before the delete: the cascade takes the memberships with the row.
    const memberships = await tx
      .select({ id: teams.id, name: teams.name, roleId: teamMembers.roleId })
      .from(teamMembers)
      .innerJoin(teams, eq(teams.id, teamMembers.teamId))
      .where(eq(teamMembers.userId, userId));
    await tx.delete(users).where(eq(users.id, userId));

    const actor = await userActor(tx, caller.userId);
    const roleName = await roleNamer(tx);
    const name = userName(deleted);
    const { companyId } = caller;
    await recordEvent(tx, {
      companyId,
      actor,
      subject: { type: 'user', id: userId, name },
      action: 'user.delete',
      outcome: 'succeeded',
      detail: { email: deleted.email },
      at: now,
    });
    for (const { roleId, ...team } of memberships) {
      const member = { userId, userName: name, role: roleName(roleId) };
      await recordMembership(tx, {
        companyId,
        actor,
        action: 'team.member.remove',
        team,
        member,
        at: now,
      });
    }
  });
}
