import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The console tickets already used to open a console (`server/providers/console-ticket.ts`): a
 * ticket opens one console, whichever server process it reaches, because its row can be inserted
 * once only. Rows go once the ticket has expired, when its signature alone refuses it.
 */
export const usedConsoleTickets = pgTable(
  'used_console_tickets',
  {
    /** SHA-256 of the ticket's nonce. */
    nonceHash: text('nonce_hash').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('used_console_tickets_expires_idx').on(t.expiresAt)],
);
