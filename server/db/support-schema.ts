import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { at, createdAt, id } from './columns';
import { companies, users } from './schema';

/** Messages sent from the Support page, kept whether or not the e-mail went out. */
export const supportMessages = pgTable(
  'support_messages',
  {
    id: id(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    senderName: text('sender_name').notNull(),
    senderEmail: text('sender_email').notNull(),
    message: text('message').notNull(),
    /** Set when the e-mail to the support address has been handed to the mail transport. */
    sentAt: at('sent_at'),
    createdAt: createdAt(),
  },
  (t) => [index('support_messages_user_idx').on(t.userId, t.createdAt)],
);
