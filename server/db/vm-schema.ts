import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { vmStatuses } from '../../src/api/contract/vms';
import { configurations, images, providers, regions } from './catalog-schema';
import { at, createdAt, id, naturalSortKey, updatedAt } from './columns';
import { companies, teams } from './schema';

/**
 * A virtual machine of a company, optionally in a team (for access control). Deleting one sets
 * `deletedAt` at once (it leaves every list) while its operation removes it from the provider;
 * the row stays for the usage history.
 */
export const virtualMachines = pgTable(
  'virtual_machines',
  {
    id: id(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    teamId: integer('team_id').references(() => teams.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    nameKey: naturalSortKey('name_key', (): AnyPgColumn => virtualMachines.name),
    regionId: integer('region_id')
      .notNull()
      .references(() => regions.id),
    imageId: integer('image_id')
      .notNull()
      .references(() => images.id),
    configurationId: integer('configuration_id')
      .notNull()
      .references(() => configurations.id),
    providerId: integer('provider_id')
      .notNull()
      .references(() => providers.id),
    status: text('status', { enum: vmStatuses }).notNull(),
    /** Why the VM is in Error (the provider's words), or null. */
    statusMessage: text('status_message'),
    username: text('username').notNull(),
    /** Encrypted with APP_SECRET (`server/domain/secrets.ts`). */
    passwordSecret: text('password_secret').notNull(),
    /** The generated key pair; null when only account keys were chosen. */
    privateKeySecret: text('private_key_secret'),
    publicKey: text('public_key'),
    /** The account keys (OpenSSH lines) chosen at creation or the last reinstall. */
    authorizedKeys: text('authorized_keys')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    allocatePublicIp: boolean('allocate_public_ip').notNull(),
    /** The engine's id of the server, once the create call has been made. */
    providerRef: text('provider_ref'),
    deletedAt: at('deleted_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('virtual_machines_company_team_idx')
      .on(t.companyId, t.teamId)
      .where(sql`${t.deletedAt} is null`),
    // The list's sorts, each ending with the id so that paging is stable.
    index('virtual_machines_company_name_idx')
      .on(t.companyId, t.nameKey, t.id)
      .where(sql`${t.deletedAt} is null`),
    index('virtual_machines_company_created_idx')
      .on(t.companyId, t.createdAt, t.id)
      .where(sql`${t.deletedAt} is null`),
    index('virtual_machines_company_status_idx')
      .on(t.companyId, t.status, t.id)
      .where(sql`${t.deletedAt} is null`),
    index('virtual_machines_company_configuration_idx')
      .on(t.companyId, t.configurationId, t.id)
      .where(sql`${t.deletedAt} is null`),
    // "Contains" search on the name.
    index('virtual_machines_name_trgm_idx')
      .using('gin', sql`lower(${t.name}) gin_trgm_ops`)
      .where(sql`${t.deletedAt} is null`),
  ],
);

/**
 * When each VM had each size: a row opens at creation and at every resize, and closes at the next
 * resize or the deletion. The dashboard counts these.
 */
export const vmSizePeriods = pgTable(
  'vm_size_periods',
  {
    id: id(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    vmId: integer('vm_id')
      .notNull()
      .references(() => virtualMachines.id),
    configurationId: integer('configuration_id')
      .notNull()
      .references(() => configurations.id),
    startedAt: at('started_at').notNull(),
    endedAt: at('ended_at'),
  },
  (t) => [
    index('vm_size_periods_company_idx').on(t.companyId, t.startedAt),
    index('vm_size_periods_open_idx')
      .on(t.vmId)
      .where(sql`${t.endedAt} is null`),
  ],
);

/**
 * When each VM ran (its status was Running): a row opens when a `vm.status` event enters Running
 * and closes when one leaves it, or at the deletion. Usage for billing counts these.
 */
export const vmRunPeriods = pgTable(
  'vm_run_periods',
  {
    id: id(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    vmId: integer('vm_id')
      .notNull()
      .references(() => virtualMachines.id),
    startedAt: at('started_at').notNull(),
    endedAt: at('ended_at'),
  },
  (t) => [
    index('vm_run_periods_company_idx').on(t.companyId, t.startedAt),
    index('vm_run_periods_open_idx')
      .on(t.vmId)
      .where(sql`${t.endedAt} is null`),
  ],
);

/**
 * The VMs a suspension of their company stopped (or held stopped): started again when the company
 * is resumed, then forgotten. Kept apart from the VM's row so that nothing else needs to know.
 */
export const suspendedVms = pgTable(
  'suspended_vms',
  {
    vmId: integer('vm_id')
      .primaryKey()
      .references(() => virtualMachines.id),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    stoppedAt: at('stopped_at').notNull(),
  },
  (t) => [index('suspended_vms_company_idx').on(t.companyId)],
);
