import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  pgTable,
  text,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { interfaceStatuses, networkTypes } from '../../src/api/contract/networks';
import { regions } from './catalog-schema';
import { at, createdAt, id, naturalSortKey, updatedAt } from './columns';
import { companies } from './schema';
import { virtualMachines } from './vm-schema';

/**
 * A private network of a company in one region. The server manages its addresses: the gateway,
 * the DHCP pool the interfaces' private addresses come from, and the SNAT address from the
 * region's public pool. Deleting one sets `deletedAt` at once; its operation removes it from the
 * provider.
 */
export const networks = pgTable(
  'networks',
  {
    id: id(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    regionId: integer('region_id')
      .notNull()
      .references(() => regions.id),
    name: text('name').notNull(),
    nameKey: naturalSortKey('name_key', (): AnyPgColumn => networks.name),
    description: text('description').notNull().default(''),
    networkType: text('network_type', { enum: networkTypes }).notNull(),
    /** Normalised `a.b.c.d/p`. */
    cidrBlock: text('cidr_block').notNull(),
    gatewayIp: text('gateway_ip'),
    snatEnabled: boolean('snat_enabled').notNull(),
    dhcpServerEnabled: boolean('dhcp_server_enabled').notNull(),
    dhcpStartAddress: text('dhcp_start_address'),
    dhcpEndAddress: text('dhcp_end_address'),
    defaultRouteEnabled: boolean('default_route_enabled').notNull(),
    defaultRoute: text('default_route'),
    serveDnsServersEnabled: boolean('serve_dns_servers_enabled').notNull(),
    dnsServers: text('dns_servers')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** The network every VM of the region starts on; created with the company's first VM there. */
    isDefault: boolean('is_default').notNull().default(false),
    providerRef: text('provider_ref'),
    deletedAt: at('deleted_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('networks_company_name_idx')
      .on(t.companyId, t.nameKey, t.id)
      .where(sql`${t.deletedAt} is null`),
    index('networks_company_region_idx')
      .on(t.companyId, t.regionId)
      .where(sql`${t.deletedAt} is null`),
    uniqueIndex('networks_default_key')
      .on(t.companyId, t.regionId)
      .where(sql`${t.isDefault} and ${t.deletedAt} is null`),
  ],
);

/**
 * A VM's network interface (vmnic 1 is the primary). The unique indexes are the last word on
 * address management: no address twice on a network, no MAC twice anywhere.
 */
export const vmInterfaces = pgTable(
  'vm_interfaces',
  {
    id: id(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    vmId: integer('vm_id')
      .notNull()
      .references(() => virtualMachines.id),
    networkId: integer('network_id')
      .notNull()
      .references((): AnyPgColumn => networks.id),
    vmnic: integer('vmnic').notNull(),
    /** From the network's DHCP pool; null on a layer-2 (custom) network. */
    privateIp: text('private_ip'),
    macAddress: text('mac_address').notNull(),
    status: text('status', { enum: interfaceStatuses }).notNull(),
    statusMessage: text('status_message'),
    /** The provider's port, once attached. */
    portRef: text('port_ref'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('vm_interfaces_vm_vmnic_key').on(t.vmId, t.vmnic),
    uniqueIndex('vm_interfaces_vm_network_key').on(t.vmId, t.networkId),
    uniqueIndex('vm_interfaces_network_ip_key').on(t.networkId, t.privateIp),
    uniqueIndex('vm_interfaces_mac_key').on(t.macAddress),
  ],
);

export const publicIpStatuses = ['Allocating', 'Active', 'Releasing'] as const;

/**
 * The public addresses in use, from each region's pool (`regions.publicIpPool`): NATed to one
 * interface, or the SNAT address of one standard network. An address is free when it has no row;
 * the unique index makes sure that no address is handed out twice.
 */
export const publicIps = pgTable(
  'public_ips',
  {
    id: id(),
    regionId: integer('region_id')
      .notNull()
      .references(() => regions.id),
    address: text('address').notNull().unique(),
    /** The company holding the address, for its quota. */
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    interfaceId: integer('interface_id').references(() => vmInterfaces.id),
    networkId: integer('network_id').references(() => networks.id),
    status: text('status', { enum: publicIpStatuses }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('public_ips_interface_key').on(t.interfaceId),
    uniqueIndex('public_ips_network_key').on(t.networkId),
    index('public_ips_company_idx').on(t.companyId, t.regionId),
    index('public_ips_region_idx').on(t.regionId),
  ],
);

/**
 * When each public address was held, and by which company: a row opens when the address is
 * allocated and closes when it is released (its `public_ips` row goes). Usage for billing counts
 * these. `vmId` or `networkId` says what it served, as `public_ips` does.
 */
export const publicIpPeriods = pgTable(
  'public_ip_periods',
  {
    id: id(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    regionId: integer('region_id')
      .notNull()
      .references(() => regions.id),
    address: text('address').notNull(),
    vmId: integer('vm_id').references((): AnyPgColumn => virtualMachines.id),
    networkId: integer('network_id').references(() => networks.id),
    startedAt: at('started_at').notNull(),
    endedAt: at('ended_at'),
  },
  (t) => [
    index('public_ip_periods_company_idx').on(t.companyId, t.startedAt),
    index('public_ip_periods_open_idx')
      .on(t.address)
      .where(sql`${t.endedAt} is null`),
  ],
);
