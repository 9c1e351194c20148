import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { userTokens, users } from '../../db/schema';
import { hashSecretToken, newSecretToken } from './secret-tokens';

export type UserTokenKind = 'reset' | 'activation';

export const USER_TOKEN_TTL_MS: Record<UserTokenKind, number> = {
  reset: 60 * 60_000,
  activation: 7 * 24 * 60 * 60_000,
};

/**
 * A new single-use token of `kind` for the user; the user's older unused ones of that kind stop
 * working. The user row is locked so two requests at once still leave one live token.
 */
export async function issueUserToken(
  tx: Tx,
  input: { userId: number; kind: UserTokenKind; now: Date },
): Promise<string> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, input.userId)).for('update');
  await tx
    .delete(userTokens)
    .where(
      and(
        eq(userTokens.userId, input.userId),
        eq(userTokens.kind, input.kind),
        isNull(userTokens.usedAt),
      ),
    );
  const token = newSecretToken();
  await tx.insert(userTokens).values({
    userId: input.userId,
    kind: input.kind,
    tokenHash: hashSecretToken(token),
    expiresAt: new Date(input.now.getTime() + USER_TOKEN_TTL_MS[input.kind]),
    createdAt: input.now,
  });
  return token;
}

/**
 * Marks the token used if it is a live token of `kind` for that user. One UPDATE decides, so two
 * requests with the same token cannot both succeed.
 */
export async function consumeUserToken(
  tx: Tx,
  input: { token: string; userId: number; kind: UserTokenKind; now: Date },
): Promise<boolean> {
  const used = await tx
    .update(userTokens)
    .set({ usedAt: input.now })
    .where(
      and(
        eq(userTokens.tokenHash, hashSecretToken(input.token)),
        eq(userTokens.userId, input.userId),
        eq(userTokens.kind, input.kind),
        isNull(userTokens.usedAt),
        gt(userTokens.expiresAt, input.now),
      ),
    )
    .returning({ id: userTokens.id });
  return used.length > 0;
}
