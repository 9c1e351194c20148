import { sql, type SQL } from 'drizzle-orm';
import {
  boolean,
  type AnyPgColumn,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, id, naturalSortKey, updatedAt } from './columns';

export const distributors = pgTable('distributors', {
  id: id(),
  externalId: text('external_id').notNull().unique(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const resellers = pgTable('resellers', {
  id: id(),
  externalId: text('external_id').notNull().unique(),
  distributorId: integer('distributor_id')
    .notNull()
    .references(() => distributors.id),
  name: text('name').notNull(),
  email: text('email').notNull(),
  resellerName: text('reseller_name'),
  logoUrl: text('logo_url'),
  tabLogoUrl: text('tab_logo_url'),
  orderUrlNewCustomer: text('order_url_new_customer'),
  orderUrlAccountChanges: text('order_url_account_changes'),
  /** The console's primary colour (`#rrggbb`), checked for contrast; null: the product's own. */
  primaryColor: text('primary_color'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * The host names on which the console shows a reseller's brand before sign-in and builds its
 * e-mailed links: set by the operator's reseller import (trusted as they are) or by the reseller
 * in its settings (checked against a DNS TXT record first). Stored lower-case, one reseller each.
 */
export const resellerDomains = pgTable(
  'reseller_domains',
  {
    host: text('host').primaryKey(),
    resellerId: integer('reseller_id')
      .notNull()
      .references(() => resellers.id, { onDelete: 'cascade' }),
    source: text('source', { enum: ['import', 'settings'] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('reseller_domains_reseller_idx').on(t.resellerId)],
);

export const companies = pgTable(
  'companies',
  {
    id: id(),
    externalId: text('external_id').notNull().unique(),
    resellerId: integer('reseller_id')
      .notNull()
      .references(() => resellers.id),
    name: text('name').notNull(),
    nameKey: naturalSortKey('name_key', (): AnyPgColumn => companies.name),
    logoUrl: text('logo_url'),
    /** The reseller's own company: its users are the reseller's staff (`isReseller`). */
    isResellerStaff: boolean('is_reseller_staff').notNull().default(false),
    /**
     * Set while its reseller has suspended it: its users cannot sign in, its credentials are
     * refused and its VMs are held stopped (`server/domain/reseller/customer-suspension.ts`).
     */
    suspendedAt: timestamp('suspended_at', { withTimezone: true }),
    /** Set by an Admin: every user must sign in with an authenticator app or a passkey. */
    requireStrongSecondFactor: boolean('require_strong_second_factor').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The reseller's Customers list: its sorts that an index can serve, each ending with the id.
    index('companies_reseller_name_idx').on(t.resellerId, t.nameKey, t.id),
    index('companies_reseller_created_idx').on(t.resellerId, t.createdAt, t.id),
  ],
);

export const users = pgTable(
  'users',
  {
    id: id(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    /** Stored lower-case; unique across the whole product because it is the login. */
    email: text('email').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    /** The key of the name shown for the user (`userDisplayName`), the Users list's sort. */
    nameKey: naturalSortKey('name_key', (): SQL => userDisplayName()),
    /** argon2id; null until the account is activated. */
    passwordHash: text('password_hash'),
    isAdmin: boolean('is_admin').notNull().default(false),
    isReseller: boolean('is_reseller').notNull().default(false),
    forcePasswordReset: boolean('force_password_reset').notNull().default(false),
    activatedAt: timestamp('activated_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    index('users_company_idx').on(t.companyId),
    // The Users list's sorts, each ending with the id so that paging is stable.
    index('users_company_name_idx').on(t.companyId, t.nameKey, t.id),
    index('users_company_email_idx').on(t.companyId, t.email, t.id),
    index('users_company_created_idx').on(t.companyId, t.createdAt, t.id),
  ],
);

/** "First Last"; invited users have no names until activation, so their address stands in. */
export const userDisplayName = (): SQL =>
  sql`coalesce(nullif(trim(${users.firstName} || ' ' || ${users.lastName}), ''), ${users.email})`;

/**
 * A sign-in. Only the SHA-256 of the bearer token is stored. The session is useless for data
 * until `verifiedAt` is set by a correct one-time code.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    rememberMe: boolean('remember_me').notNull().default(false),
    /** HMAC of the one-time code; cleared once used. */
    codeHash: text('code_hash'),
    codeExpiresAt: timestamp('code_expires_at', { withTimezone: true }),
    codeAttempts: integer('code_attempts').notNull().default(0),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    /** The client's IP address at sign-in; null for sessions older than migration 0010. */
    ipAddress: text('ip_address'),
    /** The client's User-Agent at sign-in, cut to 512 characters; null for older sessions. */
    userAgent: text('user_agent'),
    /** How the second step was passed: an e-mailed code, the app, a recovery code or a passkey. */
    secondFactor: text('second_factor', { enum: ['email', 'totp', 'recovery', 'passkey'] }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('sessions_token_hash_key').on(t.tokenHash),
    index('sessions_user_idx').on(t.userId),
  ],
);

/** Single-use links sent by e-mail (password reset, account activation). Stored hashed. */
export const userTokens = pgTable(
  'user_tokens',
  {
    id: id(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['reset', 'activation'] }).notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('user_tokens_token_hash_key').on(t.tokenHash),
    index('user_tokens_user_idx').on(t.userId),
  ],
);

/**
 * Personal API tokens: a user's machine credential, used as `Authorization: Bearer lp_…` with at
 * most the user's current rights, narrowed by `access` and `team_ids`. Stored hashed.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: id(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    access: text('access', { enum: ['read', 'readWrite'] }).notNull(),
    /** The teams it is narrowed to; null: whatever the user may see. */
    teamIds: integer('team_ids').array(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    /** The client address of its last use. */
    lastUsedFrom: text('last_used_from'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('api_tokens_token_hash_key').on(t.tokenHash),
    index('api_tokens_user_idx').on(t.userId),
  ],
);

/** Failed logins per address, for the account-level throttle (the IP limit is separate). */
export const loginFailures = pgTable(
  'login_failures',
  {
    id: id(),
    email: text('email').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('login_failures_email_idx').on(t.email, t.createdAt)],
);

/** The fixed roles (Admin 1, Manager 2, Operator 3, Viewer 4); rows are seeded by a migration. */
export const roles = pgTable('roles', {
  id: integer('id').primaryKey(),
  name: text('name').notNull().unique(),
  info: text('info').notNull(),
});

export const teams = pgTable(
  'teams',
  {
    id: id(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    parentTeamId: integer('parent_team_id').references((): AnyPgColumn => teams.id, {
      onDelete: 'set null',
    }),
    name: text('name').notNull(),
    nameKey: naturalSortKey('name_key', (): AnyPgColumn => teams.name),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Names are unique in a company whatever their case; `a01` and `a1` are two names.
    uniqueIndex('teams_company_name_key').on(t.companyId, sql`lower(${t.name})`),
    // The lists' order.
    index('teams_company_name_idx').on(t.companyId, t.nameKey, t.id),
  ],
);

/** A user's role in one team. Admins (role 1) are members with their fixed role. */
export const teamMembers = pgTable(
  'team_members',
  {
    teamId: integer('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.teamId, t.userId] }),
    index('team_members_user_idx').on(t.userId),
  ],
);
