import { z } from './zod';
import { emptyEnvelope, envelope, idSchema } from './envelope';

/**
 * A user's signed-in sessions (Profile → Sessions): listed and ended by their user; an Admin may
 * end all of a user's of the company. Ending one closes its event streams and consoles at once.
 */

export const sessionMessages = {
  notFound: 'Session not found',
  deleted: 'Signed out of that session',
  othersDeleted: 'Signed out everywhere else',
  allDeleted: 'All of the user’s sessions have ended',
} as const;

export const userSession = z.object({
  id: z.int(),
  /** "Chrome 131", from the User-Agent at sign-in; null when it said nothing recognisable. */
  browser: z.nullable(z.string()),
  /** "macOS 14.5", "Android 15"; null when unknown. */
  system: z.nullable(z.string()),
  /** desktop, mobile, tablet…; null when unknown. */
  device: z.nullable(z.string()),
  /** The User-Agent as sent at sign-in (up to 512 characters). */
  userAgent: z.nullable(z.string()),
  /** The client's IP address at sign-in. */
  address: z.nullable(z.string()),
  signedInAt: z.date(),
  lastSeenAt: z.date(),
  /** How the second step was passed: email, totp, recovery or passkey; null for older sessions. */
  secondFactor: z.nullable(z.string()),
  /** The session this list was asked with. */
  current: z.boolean(),
});
export type UserSession = z.infer<typeof userSession>;

export const listSessionsResponse = envelope(z.array(userSession));
export const sessionIdParam = z.object({ id: idSchema });
export const deleteSessionResponse = emptyEnvelope;
export const deleteOtherSessionsResponse = envelope(z.object({ ended: z.int() }));
export const sessionsUserIdParam = z.object({ userId: idSchema });
export const deleteAllSessionsResponse = envelope(z.object({ ended: z.int() }));
