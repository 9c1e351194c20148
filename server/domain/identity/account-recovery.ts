import { eq } from 'drizzle-orm';
import { users } from '../../db/schema';
import { resetPasswordLink, resetPasswordMail } from '../../mail/templates';
import type { ApiDeps } from '../../routes/deps';
import { mailSiteOf } from '../reseller/settings-mail-site';
import { hashPassword } from './passwords';
import { clearLoginFailures } from './login-throttle';
import { revokeUserSessions } from './sessions';
import { consumeUserToken, issueUserToken } from './user-tokens';
import { DEFAULT_BRAND, findUserByEmail } from './users-repository';

type Deps = Pick<ApiDeps, 'db' | 'clock' | 'config' | 'mailer'>;

/**
 * E-mails a reset link when the address is an activated account; otherwise does nothing. The link
 * is on the user's reseller's domain, the one asked on (`requestHost`) if it is one of them.
 */
export async function sendPasswordResetLink(
  deps: Deps,
  email: string,
  requestHost?: string,
): Promise<void> {
  const account = await findUserByEmail(deps.db, email);
  if (!account?.activatedAt) return;
  const now = deps.clock.now();
  const token = await deps.db.transaction((tx) =>
    issueUserToken(tx, { userId: account.id, kind: 'reset', now }),
  );
  const site = mailSiteOf(deps.config, account.reseller, requestHost);
  const link = resetPasswordLink(site.publicUrl, token, account.id);
  await deps.mailer.send({
    ...resetPasswordMail(email, account.resellerName ?? DEFAULT_BRAND, link),
    fromName: site.fromName,
  });
}

/**
 * Spends a reset token of the user on a new password and signs them out everywhere: whoever knew
 * the old password must not keep a session. False when the token is not a live one of that user.
 */
export async function resetPasswordWithToken(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: { token: string; userId: number; password: string },
): Promise<boolean> {
  const passwordHash = await hashPassword(input.password);
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const spent = await consumeUserToken(tx, {
      token: input.token,
      userId: input.userId,
      kind: 'reset',
      now,
    });
    if (!spent) return false;
    const [user] = await tx
      .update(users)
      .set({ passwordHash, forcePasswordReset: false, updatedAt: now })
      .where(eq(users.id, input.userId))
      .returning({ email: users.email });
    await revokeUserSessions(tx, { userId: input.userId, now });
    // Proof of the mailbox lifts the failed-login throttle (its message sends users here).
    if (user) await clearLoginFailures(tx, user.email);
    return true;
  });
}
