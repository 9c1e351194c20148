import { createHmac, timingSafeEqual } from 'node:crypto';

/** A signed, short-lived pass to one server's console page: `<payload>.<mac>`, both base64url. */
export interface ConsoleTicket {
  ref: string;
  expiresAt: number;
}

const mac = (secret: string, payload: string) =>
  createHmac('sha256', `sim-console:${secret}`).update(payload).digest('base64url');

export function issueConsoleTicket(secret: string, ticket: ConsoleTicket): string {
  const payload = Buffer.from(JSON.stringify(ticket)).toString('base64url');
  return `${payload}.${mac(secret, payload)}`;
}

/** The ticket, or null when it is forged, malformed or expired. */
export function readConsoleTicket(secret: string, value: string, now: Date): ConsoleTicket | null {
  const [payload, signature, ...rest] = value.split('.');
  if (!payload || !signature || rest.length > 0) return null;
  const expected = Buffer.from(mac(secret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const ticket = JSON.parse(Buffer.from(payload, 'base64url').toString()) as ConsoleTicket;
    if (typeof ticket.ref !== 'string' || typeof ticket.expiresAt !== 'number') return null;
    return ticket.expiresAt > now.getTime() ? ticket : null;
  } catch {
    return null;
  }
}
