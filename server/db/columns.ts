import { integer, timestamp } from 'drizzle-orm/pg-core';

/** The column shapes every table shares. */
export const id = () => integer('id').primaryKey().generatedAlwaysAsIdentity();
export const createdAt = () =>
  timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
export const updatedAt = () =>
  timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
/** A moment that may not have come yet. */
export const at = (name: string) => timestamp(name, { withTimezone: true });
