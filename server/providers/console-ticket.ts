import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { deriveKey } from '../domain/app-keys';

/** How long a console link may wait to be opened: long enough to load the page and connect. */
export const CONSOLE_TICKET_MS = 60_000;

/**
 * What a console link was given to: a signed-in session (then only that session's browser opens
 * it), or an API token (then the link itself is the pass, for its minute and one console).
 */
export type TicketHolder = { kind: 'session'; id: number } | { kind: 'apiToken'; id: number };

/**
 * A signed pass to one VM's console for one viewer: the VM, the user and the session or API token
 * it was given to, a nonce (it opens one console only: see `console-admission.ts`) and its expiry,
 * as `<vmId>.<userId>.<s|t><holder id>.<nonce>.<expiry in s>.<mac>`, fit for a URL path segment.
 */
export interface ConsoleTicket {
  vmId: number;
  userId: number;
  holder: TicketHolder;
  nonce: string;
  expiresAt: number;
}

const HOLDER_PREFIX = { session: 's', apiToken: 't' } as const;

/** The tickets' MAC key: derived from APP_SECRET for this purpose only. */
export const deriveConsoleTicketKey = (appSecret: string) =>
  deriveKey(appSecret, 'console-tickets');

const mac = (key: Buffer, payload: string) =>
  createHmac('sha256', key).update(payload).digest().subarray(0, 18).toString('base64url');

/** A new ticket for the viewer, good for CONSOLE_TICKET_MS from `now`. */
export function issueConsoleTicket(
  key: Buffer,
  viewer: Pick<ConsoleTicket, 'vmId' | 'userId' | 'holder'>,
  now: Date,
): string {
  const nonce = randomBytes(16).toString('base64url');
  const expiry = Math.floor((now.getTime() + CONSOLE_TICKET_MS) / 1000);
  const holder = `${HOLDER_PREFIX[viewer.holder.kind]}${viewer.holder.id}`;
  const payload = `${viewer.vmId}.${viewer.userId}.${holder}.${nonce}.${expiry}`;
  return `${payload}.${mac(key, payload)}`;
}

const TICKET = /^(\d{1,10})\.(\d{1,10})\.([st])(\d{1,10})\.([\w-]{22})\.(\d{1,12})\.([\w-]{24})$/;

/** The ticket, or null when it is forged, malformed or expired. */
export function readConsoleTicket(key: Buffer, value: string, now: Date): ConsoleTicket | null {
  const match = TICKET.exec(value);
  if (!match) return null;
  const [, vmId, userId, holderKind, holderId, nonce, seconds, signature] = match;
  // Compared as text: base64url decoding would ignore a stray trailing character.
  const expected = Buffer.from(mac(key, value.slice(0, value.lastIndexOf('.'))));
  const given = Buffer.from(signature!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  const expiresAt = Number(seconds) * 1000;
  if (expiresAt <= now.getTime()) return null;
  return {
    vmId: Number(vmId),
    userId: Number(userId),
    holder: { kind: holderKind === 's' ? 'session' : 'apiToken', id: Number(holderId) },
    nonce: nonce!,
    expiresAt,
  };
}

/** What the database keeps of a used ticket: never the nonce itself. */
export const ticketNonceHash = (ticket: Pick<ConsoleTicket, 'nonce'>) =>
  createHash('sha256').update(ticket.nonce).digest('base64url');
