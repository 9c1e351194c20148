import { bigint, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

/** The lists whose rows are counted, each by the id of what owns it. */
export const countedLists = [
  /** A company's VMs (not deleted); the version changes with any change to their order. */
  'vms',
  /** A team's VMs. */
  'team_vms',
  /** A company's VMs without a team. */
  'unassigned_vms',
  'networks',
  'users',
  'teams',
  /** A team's members. */
  'team_members',
  /** A user's teams. */
  'user_teams',
] as const;
export type CountedList = (typeof countedLists)[number];

/**
 * How many rows each list holds, kept by triggers (migration 0006) in the transaction that
 * changes the rows, so that `Page X of Y` never counts a company's rows. `version` grows with
 * every change to a list's rows or their order: a cached position in the list is good while
 * the version it was read at still stands.
 */
export const listCounts = pgTable(
  'list_counts',
  {
    list: text('list', { enum: countedLists }).notNull(),
    ownerId: integer('owner_id').notNull(),
    n: integer('n').notNull(),
    version: bigint('version', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.list, t.ownerId] })],
);
