import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { ActivityAction } from '../../src/api/contract/activity';
import type {
  ActivityActorType,
  ActivityOutcome,
  ActivitySubjectType,
} from '../../src/api/contract/search-values';
import { companies } from './schema';

/**
 * The company's event log (`src/api/contract/activity.ts`), appended in the transaction of the
 * change it records (`server/domain/events/record.ts`). `seq`, the id clients see, is given at
 * commit under the company's lock (migration 0009), so a company's events are numbered in commit
 * order and a stream resumed after one finds every later one. Rows keep names as they were: the
 * subject may be renamed or gone.
 */
export const events = pgTable(
  'events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** Set when the transaction commits; null only inside it. */
    seq: bigint('seq', { mode: 'number' }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    actorType: text('actor_type').$type<ActivityActorType>().notNull(),
    /** Not a foreign key: the log outlives the users it names. */
    actorId: integer('actor_id'),
    actorName: text('actor_name').notNull(),
    subjectType: text('subject_type').$type<ActivitySubjectType>().notNull(),
    subjectId: integer('subject_id').notNull(),
    subjectName: text('subject_name').notNull(),
    action: text('action').$type<ActivityAction>().notNull(),
    outcome: text('outcome').$type<ActivityOutcome>().notNull(),
    teamId: integer('team_id'),
    networkId: integer('network_id'),
    operationId: integer('operation_id'),
    detail: jsonb('detail')
      .$type<Record<string, string | number | boolean | null>>()
      .notNull()
      .default({}),
  },
  (t) => [
    uniqueIndex('events_seq_idx').on(t.seq),
    index('events_company_idx').on(t.companyId, t.seq),
    index('events_subject_idx').on(t.companyId, t.subjectType, t.subjectId, t.seq),
    index('events_network_idx')
      .on(t.companyId, t.networkId, t.seq)
      .where(sql`${t.networkId} is not null`),
    index('events_team_idx')
      .on(t.companyId, t.teamId, t.seq)
      .where(sql`${t.teamId} is not null`),
  ],
);
