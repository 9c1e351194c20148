import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { at, createdAt, id } from './columns';
import { images } from './catalog-schema';
import { companies, users } from './schema';
import { virtualMachines } from './vm-schema';

/**
 * A user's own public SSH keys (Profile → SSH keys), offered when a VM is created or reinstalled.
 * The key is stored as given (one OpenSSH line); the fingerprint is its SHA-256 form.
 */
export const sshKeys = pgTable(
  'ssh_keys',
  {
    id: id(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    name: text('name').notNull(),
    publicKey: text('public_key').notNull(),
    fingerprint: text('fingerprint').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('ssh_keys_user_fingerprint_key').on(t.userId, t.fingerprint)],
);

export const snapshotStatuses = [
  'creating',
  'available',
  'restoring',
  'deleting',
  'error',
] as const;
export type SnapshotStatus = (typeof snapshotStatuses)[number];

/**
 * A saved state of a VM's disk, made and restored by durable operations on its provider. Deleting
 * the VM deletes its snapshots; `deletedAt` takes a row out of every list at once while its
 * operation removes it from the provider.
 */
export const vmSnapshots = pgTable(
  'vm_snapshots',
  {
    id: id(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    vmId: integer('vm_id')
      .notNull()
      .references(() => virtualMachines.id),
    name: text('name').notNull(),
    /** The VM's image when it was taken: a restore brings the VM back to it. */
    imageId: integer('image_id').references(() => images.id),
    status: text('status', { enum: snapshotStatuses }).notNull(),
    statusMessage: text('status_message'),
    /** Bytes the snapshot holds on its engine, once known. */
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
    /** The engine's id of the snapshot (a libvirt snapshot file's ref, a Glance image id…). */
    providerRef: text('provider_ref'),
    deletedAt: at('deleted_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('vm_snapshots_vm_idx')
      .on(t.vmId, t.createdAt)
      .where(sql`${t.deletedAt} is null`),
    index('vm_snapshots_company_idx')
      .on(t.companyId)
      .where(sql`${t.deletedAt} is null`),
  ],
);

/**
 * When each snapshot was held on its engine, and how big it was: a row opens when the snapshot
 * becomes available (its size known) and closes when its delete finished, its own or its VM's.
 * A snapshot whose take failed never has one. Usage for billing counts these (GB-hours).
 */
export const snapshotPeriods = pgTable(
  'snapshot_periods',
  {
    id: id(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    vmId: integer('vm_id')
      .notNull()
      .references(() => virtualMachines.id),
    snapshotId: integer('snapshot_id')
      .notNull()
      .references(() => vmSnapshots.id),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    startedAt: at('started_at').notNull(),
    endedAt: at('ended_at'),
  },
  (t) => [
    index('snapshot_periods_company_idx').on(t.companyId, t.startedAt),
    index('snapshot_periods_open_idx')
      .on(t.snapshotId)
      .where(sql`${t.endedAt} is null`),
  ],
);

/**
 * A user's authenticator app: the shared secret (sealed with APP_SECRET), enrolled once a first
 * code confirms it. `lastStep` is the time step of the last code accepted, so that a code is used
 * once within its window.
 */
export const userTotp = pgTable('user_totp', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secretSealed: text('secret_sealed').notNull(),
  confirmedAt: at('confirmed_at'),
  lastStep: bigint('last_step', { mode: 'number' }),
  createdAt: createdAt(),
});

/** Single-use recovery codes of a user's authenticator app, stored hashed. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: id(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: at('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('recovery_codes_user_idx').on(t.userId)],
);

/** A user's passkeys and security keys (WebAuthn credentials), named by the user. */
export const webauthnCredentials = pgTable(
  'webauthn_credentials',
  {
    id: id(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** base64url of the credential id the authenticator gave. */
    credentialId: text('credential_id').notNull(),
    /** base64url of the COSE public key. */
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: text('transports')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Whether it is a discoverable credential (a passkey), usable to sign in without a password. */
    discoverable: boolean('discoverable').notNull().default(false),
    lastUsedAt: at('last_used_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('webauthn_credentials_credential_key').on(t.credentialId),
    index('webauthn_credentials_user_idx').on(t.userId),
  ],
);

/**
 * WebAuthn challenges waiting for their answer: a registration (of a signed-in session), a second
 * step (of a session awaiting its second factor) or a sign-in without a password (no session yet).
 * A challenge is public: it only has to be answered once, and in time.
 */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    id: id(),
    challenge: text('challenge').notNull(),
    purpose: text('purpose', { enum: ['register', 'second-step', 'sign-in'] }).notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    sessionId: integer('session_id'),
    expiresAt: at('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('webauthn_challenges_challenge_key').on(t.challenge)],
);
