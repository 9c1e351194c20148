import { and, eq, inArray } from 'drizzle-orm';
import { permissionMessages } from '../../src/api/contract/permissions';
import { ROLE, type RoleId } from '../../src/api/contract/roles';
import { userMessages } from '../../src/api/contract/users';
import { companies, teamMembers, teams, users } from '../db/schema';
import { conflict, forbidden, HttpError, notFound } from '../http-error';
import type { ApiDeps } from '../routes/deps';
import { requireAdmin, type Caller } from './access';
import { sendActivationLink } from './account-activation';
import { isUniqueViolation } from '../db/errors';

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
 * team of another company, answers 404 naming `teamIds` and creates nothing.
 */
export async function inviteUser(deps: Deps, caller: Caller, input: NewUser): Promise<number> {
  requireAdmin(caller);
  const teamIds = [...new Set(input.teamIds)];
  const isAdmin = input.roleId === ROLE.admin;
  const now = deps.clock.now();
  let id: number;
  try {
    id = await deps.db.transaction(async (tx) => {
      if (teamIds.length > 0) {
        const found = await tx
          .select({ id: teams.id })
          .from(teams)
          .where(and(eq(teams.companyId, caller.companyId), inArray(teams.id, teamIds)))
          // Locked so that no team can be deleted before the memberships point at it.
          .for('key share');
        if (found.length !== teamIds.length) {
          throw new HttpError(404, userMessages.teamNotFound, 'teamIds');
        }
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
      if (teamIds.length > 0) {
        // An Admin's role is fixed: each of their memberships carries the Admin role.
        const roleId = isAdmin ? ROLE.admin : input.roleId;
        await tx
          .insert(teamMembers)
          .values(teamIds.map((teamId) => ({ teamId, userId, roleId, createdAt: now })));
      }
      return userId;
    });
  } catch (error) {
    // Two invitations of one address at once: the unique index decides, not a prior lookup.
    if (isUniqueViolation(error, EMAIL_UNIQUE_INDEX)) throw conflict(userMessages.emailTaken);
    throw error;
  }
  deps.background.run('invitation e-mail', () => sendActivationLink(deps, input.email));
  return id;
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
 * (ON DELETE CASCADE), so the user's sessions stop working at once.
 */
export async function deleteUser(
  deps: Pick<Deps, 'db'>,
  caller: Caller,
  userId: number,
): Promise<void> {
  requireAdmin(caller);
  if (userId === caller.userId) throw forbidden(userMessages.cannotDeleteSelf);
  const deleted = await deps.db
    .delete(users)
    .where(and(eq(users.id, userId), eq(users.companyId, caller.companyId)))
    .returning({ id: users.id });
  if (deleted.length === 0) throw notFound(userMessages.notFound);
}
