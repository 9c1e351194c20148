import { sql } from 'drizzle-orm';
import { check, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { limitResources } from '../../src/api/contract/limits';
import { regions } from './catalog-schema';
import { id } from './columns';
import { companies, resellers } from './schema';

/**
 * What a company may hold, set by its reseller (`PUT /reseller/companies/limits/{id}`), and what
 * all of a reseller's customers together may hold, set by the operator's reseller import. A null
 * region means all regions together. The operator's per-region quotas (`QUOTA_*_PER_REGION`) are
 * configuration, not rows.
 *
 * One limit per owner, resource and region: the unique indexes read a null region as 0 (no
 * region has that id), so that two all-regions limits collide as two of one region do, on
 * PostgreSQL before 15 and PGlite alike.
 */

export const companyLimits = pgTable(
  'company_limits',
  {
    id: id(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    resource: text('resource', { enum: limitResources }).notNull(),
    regionId: integer('region_id').references(() => regions.id),
    max: integer('max').notNull(),
  },
  (t) => [
    uniqueIndex('company_limits_key').on(t.companyId, t.resource, sql`coalesce(${t.regionId}, 0)`),
    check('company_limits_max', sql`${t.max} >= 0`),
  ],
);

export const resellerLimits = pgTable(
  'reseller_limits',
  {
    id: id(),
    resellerId: integer('reseller_id')
      .notNull()
      .references(() => resellers.id, { onDelete: 'cascade' }),
    resource: text('resource', { enum: limitResources }).notNull(),
    regionId: integer('region_id').references(() => regions.id),
    max: integer('max').notNull(),
  },
  (t) => [
    uniqueIndex('reseller_limits_key').on(
      t.resellerId,
      t.resource,
      sql`coalesce(${t.regionId}, 0)`,
    ),
    check('reseller_limits_max', sql`${t.max} >= 0`),
  ],
);
