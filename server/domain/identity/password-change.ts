import { and, eq } from 'drizzle-orm';
import { users } from '../../db/schema';
import type { ApiDeps } from '../../routes/deps';
import { hashPassword, verifyPassword } from './passwords';
import { revokeUserSessions } from './sessions';
import { findPasswordHash } from './users-repository';

export type PasswordChange = 'changed' | 'wrong-current' | 'unchanged';

/**
 * A signed-in user replaces their password; every other session ends. `wrong-current` when the
 * current password is wrong, or was changed by another request meanwhile; `unchanged` when the new
 * one is the current one (a forced reset must really replace it).
 */
export async function changePassword(
  deps: Pick<ApiDeps, 'db' | 'clock'>,
  input: { userId: number; sessionId: number; currentPassword: string; password: string },
): Promise<PasswordChange> {
  const currentHash = await findPasswordHash(deps.db, input.userId);
  if (!currentHash || !(await verifyPassword(currentHash, input.currentPassword))) {
    return 'wrong-current';
  }
  if (input.password === input.currentPassword) return 'unchanged';
  const passwordHash = await hashPassword(input.password);
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    // Compare-and-set on the hash we checked, so a concurrent change is not silently overwritten.
    const changed = await tx
      .update(users)
      .set({ passwordHash, forcePasswordReset: false, updatedAt: now })
      .where(and(eq(users.id, input.userId), eq(users.passwordHash, currentHash)))
      .returning({ id: users.id });
    if (changed.length === 0) return 'wrong-current';
    await revokeUserSessions(tx, { userId: input.userId, now, exceptSessionId: input.sessionId });
    return 'changed';
  });
}
