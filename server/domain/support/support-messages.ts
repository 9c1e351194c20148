import { and, count, eq, gt } from 'drizzle-orm';
import { authMessages } from '../../../src/api/contract/auth';
import {
  SUPPORT_MESSAGES_PER_WINDOW,
  SUPPORT_WINDOW_MINUTES,
  supportMessages as texts,
} from '../../../src/api/contract/support';
import { companies, resellers, users } from '../../db/schema';
import { supportMessages } from '../../db/support-schema';
import { tooManyRequests, unauthorized } from '../../http-error';
import { supportMail } from '../../mail/templates';
import type { ApiDeps } from '../../routes/deps';
import type { SessionCaller } from '../identity/sessions';
import { DEFAULT_BRAND } from '../identity/users-repository';

type Deps = Pick<ApiDeps, 'db' | 'clock' | 'config' | 'mailer'>;

const WINDOW_MS = SUPPORT_WINDOW_MINUTES * 60_000;

/**
 * Stores a Support page message and e-mails it to the support address with its sender (name,
 * company, e-mail as reply-to). At most SUPPORT_MESSAGES_PER_WINDOW a user in the window, counted
 * in the table so the limit holds across restarts and processes. The text is never logged.
 */
export async function sendSupportMessage(
  deps: Deps,
  who: Pick<SessionCaller, 'userId' | 'companyId'>,
  message: string,
): Promise<{ sent: true } | { sent: false; error: unknown }> {
  const now = deps.clock.now();
  const stored = await deps.db.transaction(async (tx) => {
    // The user's row is the lock: two messages sent at once cannot both slip under the limit.
    const [sender] = await tx
      .select({
        firstName: users.firstName,
        lastName: users.lastName,
        email: users.email,
        companyName: companies.name,
        brand: resellers.resellerName,
      })
      .from(users)
      .innerJoin(companies, eq(companies.id, users.companyId))
      .innerJoin(resellers, eq(resellers.id, companies.resellerId))
      .where(and(eq(users.id, who.userId), eq(users.companyId, who.companyId)))
      .for('update', { of: users });
    if (!sender) throw unauthorized(authMessages.notAuthenticated);

    const [recent] = await tx
      .select({ n: count() })
      .from(supportMessages)
      .where(
        and(
          eq(supportMessages.userId, who.userId),
          gt(supportMessages.createdAt, new Date(now.getTime() - WINDOW_MS)),
        ),
      );
    if ((recent?.n ?? 0) >= SUPPORT_MESSAGES_PER_WINDOW) throw tooManyRequests(texts.rateLimited);

    const senderName = `${sender.firstName} ${sender.lastName}`.trim() || sender.email;
    const [row] = await tx
      .insert(supportMessages)
      .values({
        companyId: who.companyId,
        userId: who.userId,
        senderName,
        senderEmail: sender.email,
        message,
        createdAt: now,
      })
      .returning({ id: supportMessages.id });
    return { id: row!.id, sender: { ...sender, name: senderName } };
  });

  try {
    await deps.mailer.send(
      supportMail({
        to: deps.config.supportEmail,
        brand: stored.sender.brand ?? DEFAULT_BRAND,
        sender: {
          name: stored.sender.name,
          email: stored.sender.email,
          companyName: stored.sender.companyName,
          userId: who.userId,
        },
        messageId: stored.id,
        sentAt: now,
        message,
      }),
    );
  } catch (error) {
    // Kept in the table without sent_at: the support team can still find it there.
    return { sent: false, error };
  }
  await deps.db
    .update(supportMessages)
    .set({ sentAt: deps.clock.now() })
    .where(eq(supportMessages.id, stored.id));
  return { sent: true };
}
