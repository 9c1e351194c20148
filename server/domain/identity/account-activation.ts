import { and, eq, isNull } from 'drizzle-orm';
import { users } from '../../db/schema';
import { activationLink, activationMail } from '../../mail/templates';
import type { ApiDeps } from '../../routes/deps';
import { mailSiteOf } from '../reseller/settings-mail-site';
import { userActor } from '../events/actor';
import { recordEvent } from '../events/record';
import { hashPassword } from './passwords';
import { consumeUserToken, issueUserToken } from './user-tokens';
import { DEFAULT_BRAND, findUserByEmail } from './users-repository';

type Deps = Pick<ApiDeps, 'db' | 'clock' | 'config' | 'mailer'>;

/**
 * E-mails a new activation link when the address is an account not activated yet. The link is on
 * the user's reseller's domain, the one asked on (`requestHost`) if it is one of them.
 */
export async function sendActivationLink(
  deps: Deps,
  email: string,
  requestHost?: string,
): Promise<void> {
  const account = await findUserByEmail(deps.db, email);
  if (!account || account.activatedAt) return;
  const now = deps.clock.now();
  const token = await deps.db.transaction((tx) =>
    issueUserToken(tx, { userId: account.id, kind: 'activation', now }),
  );
  const site = mailSiteOf(deps.config, account.reseller, requestHost);
  const link = activationLink(site.publicUrl, token, account.id);
  await deps.mailer.send({
    ...activationMail(email, account.resellerName ?? DEFAULT_BRAND, link),
    fromName: site.fromName,
  });
}

/**
 * Spends an activation token on the user's name and first password, and logs `user.activate` by
 * that user. False when the token is not a live one of that user or the account is already active.
 */
export async function activateAccount(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: { token: string; userId: number; password: string; firstName: string; lastName: string },
): Promise<boolean> {
  const passwordHash = await hashPassword(input.password);
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const [pending] = await tx
      .select({ id: users.id, companyId: users.companyId, email: users.email })
      .from(users)
      .where(and(eq(users.id, input.userId), isNull(users.activatedAt)));
    if (!pending) return false;
    const spent = await consumeUserToken(tx, {
      token: input.token,
      userId: input.userId,
      kind: 'activation',
      now,
    });
    if (!spent) return false;
    await tx
      .update(users)
      .set({
        firstName: input.firstName,
        lastName: input.lastName,
        passwordHash,
        activatedAt: now,
        updatedAt: now,
      })
      .where(eq(users.id, input.userId));
    const actor = await userActor(tx, input.userId);
    await recordEvent(tx, {
      companyId: pending.companyId,
      actor,
      subject: { type: 'user', id: input.userId, name: actor.name },
      action: 'user.activate',
      outcome: 'succeeded',
      detail: { email: pending.email },
      at: now,
    });
    return true;
  });
}
