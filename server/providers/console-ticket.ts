import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A signed, short-lived pass to one server's console: `<ref>.<expiry in s>.<mac>`, the ref in
 * base64url (an engine's refs may hold a `/`), fit for a URL path segment. The MAC is keyed by the
 * engine's kind as well as the secret, so that a ticket for one engine's console is no ticket for
 * another's.
 */
export interface ConsoleTicket {
  ref: string;
  expiresAt: number;
}

const mac = (secret: string, kind: string, payload: string) =>
  createHmac('sha256', `${kind}-console:${secret}`).update(payload).digest().subarray(0, 18);

export function issueConsoleTicket(secret: string, kind: string, ticket: ConsoleTicket): string {
  const ref = Buffer.from(ticket.ref).toString('base64url');
  const payload = `${ref}.${Math.floor(ticket.expiresAt / 1000)}`;
  return `${payload}.${mac(secret, kind, payload).toString('base64url')}`;
}

/** The ticket, or null when it is forged, for another engine, malformed or expired. */
export function readConsoleTicket(
  secret: string,
  kind: string,
  value: string,
  now: Date,
): ConsoleTicket | null {
  const match = /^([\w-]+)\.(\d{1,12})\.([\w-]+)$/.exec(value);
  if (!match) return null;
  const [, ref, seconds, signature] = match;
  // Compared as text: base64url decoding would ignore a stray trailing character.
  const expected = Buffer.from(mac(secret, kind, `${ref}.${seconds}`).toString('base64url'));
  const given = Buffer.from(signature!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  const expiresAt = Number(seconds) * 1000;
  return expiresAt > now.getTime()
    ? { ref: Buffer.from(ref!, 'base64url').toString(), expiresAt }
    : null;
}
