import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { deriveKey } from '../domain/app-keys';

/** How long a console link may wait to be opened: long enough to load the page and connect. */
export const CONSOLE_TICKET_MS = 60_000;

/**
 * A signed pass to one VM's console for one viewer: the VM, the user and the session it was
 * given to, a nonce (it opens one console only: see `console-admission.ts`) and its expiry, as
 * `<vmId>.<userId>.<sessionId>.<nonce>.<expiry in s>.<mac>`, fit for a URL path segment.
 */
export interface ConsoleTicket {
  vmId: number;
  userId: number;
  sessionId: number;
  nonce: string;
  expiresAt: number;
}

/** The tickets' MAC key: derived from APP_SECRET for this purpose only. */
export const deriveConsoleTicketKey = (appSecret: string) =>
  deriveKey(appSecret, 'console-tickets');

const mac = (key: Buffer, payload: string) =>
  createHmac('sha256', key).update(payload).digest().subarray(0, 18).toString('base64url');

/** A new ticket for the viewer, good for CONSOLE_TICKET_MS from `now`. */
export function issueConsoleTicket(
  key: Buffer,
  viewer: Pick<ConsoleTicket, 'vmId' | 'userId' | 'sessionId'>,
  now: Date,
): string {
  const nonce = randomBytes(16).toString('base64url');
  const expiry = Math.floor((now.getTime() + CONSOLE_TICKET_MS) / 1000);
  const payload = `${viewer.vmId}.${viewer.userId}.${viewer.sessionId}.${nonce}.${expiry}`;
  return `${payload}.${mac(key, payload)}`;
}

const TICKET = /^(\d{1,10})\.(\d{1,10})\.(\d{1,10})\.([\w-]{22})\.(\d{1,12})\.([\w-]{24})$/;

/** The ticket, or null when it is forged, malformed or expired. */
export function readConsoleTicket(key: Buffer, value: string, now: Date): ConsoleTicket | null {
  const match = TICKET.exec(value);
  if (!match) return null;
  const [, vmId, userId, sessionId, nonce, seconds, signature] = match;
  // Compared as text: base64url decoding would ignore a stray trailing character.
  const expected = Buffer.from(mac(key, value.slice(0, value.lastIndexOf('.'))));
  const given = Buffer.from(signature!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  const expiresAt = Number(seconds) * 1000;
  if (expiresAt <= now.getTime()) return null;
  return {
    vmId: Number(vmId),
    userId: Number(userId),
    sessionId: Number(sessionId),
    nonce: nonce!,
    expiresAt,
  };
}

/** What the database keeps of a used ticket: never the nonce itself. */
export const ticketNonceHash = (ticket: Pick<ConsoleTicket, 'nonce'>) =>
  createHash('sha256').update(ticket.nonce).digest('base64url');
