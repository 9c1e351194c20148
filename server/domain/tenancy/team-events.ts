import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { roles, teams } from '../../db/schema';
import type { Caller } from './access';
import { userActor, type Actor } from '../events/actor';
import { recordEvent, type EventInput } from '../events/record';

/**
 * What the writes on teams put in the event log: the team itself, its members and their roles
 * (inviting a user adds members too), with the names users and roles are logged by.
 */

/** "First Last"; invited users have no names until activation, so their address stands in. */
export const userName = (user: { firstName: string; lastName: string; email: string }) =>
  `${user.firstName} ${user.lastName}`.trim() || user.email;

/** The roles' names (seeded by a migration), so that the log reads "Manager", not 2. */
export async function roleNamer(tx: Tx): Promise<(roleId: number) => string> {
  const rows = await tx.select({ id: roles.id, name: roles.name }).from(roles);
  const names = new Map(rows.map((row) => [row.id, row.name]));
  return (roleId) => names.get(roleId) ?? `Role ${roleId}`;
}

/** A team event: the team is the subject and decides who sees it (its members, and Admins). */
export function recordTeamEvent(
  tx: Tx,
  input: Pick<EventInput, 'companyId' | 'actor' | 'action' | 'detail' | 'at'> & {
    team: { id: number; name: string };
  },
) {
  return recordEvent(tx, {
    companyId: input.companyId,
    actor: input.actor,
    subject: { type: 'team', id: input.team.id, name: input.team.name },
    action: input.action,
    outcome: 'succeeded',
    teamId: input.team.id,
    detail: input.detail,
    at: input.at,
  });
}

/** `team.member.add` or `team.member.remove` of one user. */
export function recordMembership(
  tx: Tx,
  input: {
    companyId: number;
    actor: Actor;
    action: 'team.member.add' | 'team.member.remove';
    team: { id: number; name: string };
    member: { userId: number; userName: string; role: string };
    at: Date;
  },
) {
  const { member, ...rest } = input;
  return recordTeamEvent(tx, { ...rest, detail: { ...member } });
}

/** `team.member.role` for each member whose role `wanted` changes; none for the others. */
export async function recordRoleChanges(
  tx: Tx,
  caller: Caller,
  input: {
    teamId: number;
    /** The members' roles before the change. */
    members: { userId: number; roleId: number; name: string }[];
    wanted: Map<number, number>;
    now: Date;
  },
) {
  const changed = input.members.filter(({ userId, roleId }) => input.wanted.get(userId) !== roleId);
  if (changed.length === 0) return;
  const [team] = await tx
    .select({ id: teams.id, name: teams.name })
    .from(teams)
    .where(eq(teams.id, input.teamId));
  const actor = await userActor(tx, caller.userId);
  const roleName = await roleNamer(tx);
  for (const { userId, roleId, name } of changed) {
    await recordTeamEvent(tx, {
      companyId: caller.companyId,
      actor,
      team: team!,
      action: 'team.member.role',
      detail: {
        userId,
        userName: name,
        from: roleName(roleId),
        to: roleName(input.wanted.get(userId)!),
      },
      at: input.now,
    });
  }
}
