import { z } from './zod';
import { emptyEnvelope, envelope, idSchema, pageQuery, paged } from './envelope';
import { isIpAddress, isPrivateBlock, parseCidr } from './ip';
import { networkSortColumns, type NetworkSortColumn } from './search-values';

/** Spec sections 3, 4 and 5 for networks, network interfaces and public IPs. */

export const NETWORK_NAME_MAX = 64;
export const NETWORK_DESCRIPTION_MAX = 500;
export const FORM_PREFIX_MIN = 22;
export const FORM_PREFIX_MAX = 27;
export const MAX_INTERFACES = 5;
export const PRIMARY_VMNIC = 1;
/** Spec section 9 "Default DNS servers". */
export const DEFAULT_DNS_SERVERS = '1.1.1.1, 8.8.8.8';

export const networkTypes = ['standard', 'custom'] as const;
export const networkType = z.enum(networkTypes);
export type NetworkType = z.infer<typeof networkType>;

/** Letters, digits, spaces, underscores and hyphens (spec section 5). */
export const NETWORK_NAME_ALLOWED = /[A-Za-z0-9 _-]/;

export const networkMessages = {
  nameRequired: 'Network name is required',
  nameTooLong: `Network name must not exceed ${NETWORK_NAME_MAX} characters`,
  /** The error lists the characters that are not allowed. */
  nameInvalid: (characters: string[]) =>
    `Network name contains invalid characters: ${characters.join(' ')}`,
  regionRequired: 'Region is required',
  descriptionTooLong: `Description must not exceed ${NETWORK_DESCRIPTION_MAX} characters`,
  cidrRequired: 'CIDR block is required',
  cidrInvalid: 'Enter a CIDR block such as 10.0.0.0/24',
  cidrPrivate: 'Use a private range: 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16 or 100.64.0.0/10',
  cidrHostBits: (network: string) => `Use the network address ${network}`,
  cidrPrefix: `The prefix must be between /${FORM_PREFIX_MIN} and /${FORM_PREFIX_MAX}`,
  dhcpStartRequired: 'DHCP Start Address is required for Standard Networks',
  dhcpEndRequired: 'DHCP End Address is required for Standard Networks',
  defaultRouteRequired: 'Default Route is required for Standard Networks',
  dnsRequired: 'DNS Servers are required for Standard Networks',
  fillRequired: 'Please fill in all required fields',
  ipInvalid: 'An IP address is four numbers from 0 to 255 separated by dots',
  dnsInvalid: 'Enter one or two IP addresses separated by a comma',
  outsideCidr: 'The address must be a host address inside the CIDR block',
  dhcpOrder: 'DHCP Start Address must not come after DHCP End Address',
  dhcpHoldsGateway: 'The DHCP range must not include the gateway address',
  notFound: 'Network not found',
  hasVms: 'A network with connected VMs cannot be edited or deleted',
  typeFixed: 'The network type cannot be changed after creation',
  adminsOnly: 'Only Admins can create, edit or delete networks',
  created: 'Network created',
  updated: 'Network updated',
  deleting: 'Network is being deleted',
  // Interfaces of a VM and public IPs.
  interfaceNotFound: 'Network interface not found',
  maxInterfaces: `A VM can have at most ${MAX_INTERFACES} network interfaces`,
  primaryFixed: 'The primary interface cannot be removed',
  alreadyConnected: 'The VM is already connected to this network',
  otherRegion: 'The network is in another region than the VM',
  stopFirst: 'Stop the VM before changing its network interfaces',
  interfaceBusy: 'The network interface is busy; try again when its operation ends',
  noAvailableNetworks: 'No available networks to connect to',
  selectNetworkFirst: 'Please select a network first',
  publicIpNeedsSnat: 'A public IP needs a standard network (with SNAT)',
  alreadyHasPublicIp: 'The interface already has a public IP',
  noPublicIp: 'The interface has no public IP',
  poolExhausted: 'No public IP address is left in this region',
  publicIpQuota: (limit: number) =>
    `The company has reached its limit of ${limit} public IP addresses in this region`,
  networkQuota: (limit: number) =>
    `The company has reached its limit of ${limit} networks in this region`,
  noDefaultBlock: 'No free address block is left in 10.0.0.0/8 for a default network',
  interfaceAdded: 'Network interface added successfully',
  interfaceRemoved: 'Network interface removed successfully',
  ipAllocated: 'IP allocated successfully',
  ipReleased: 'IP deallocated successfully',
} as const;

const id = idSchema;

// ---------------------------------------------------------------------------------------------
// Addressing values

/** A dotted IPv4 address; blank means none. */
const optionalIp = z.pipe(
  z.nullish(
    z.string().check(
      z.trim(),
      z.maxLength(15, { abort: true }),
      z.refine((v) => v === '' || isIpAddress(v), networkMessages.ipInvalid),
    ),
  ),
  z.transform((v) => v || null),
);

export const networkNameSchema = z.string({ error: networkMessages.nameRequired }).check(
  z.trim(),
  z.minLength(1, { error: networkMessages.nameRequired, abort: true }),
  z.maxLength(NETWORK_NAME_MAX, { error: networkMessages.nameTooLong, abort: true }),
  z.superRefine((value, ctx) => {
    const invalid = [...new Set([...value].filter((c) => !NETWORK_NAME_ALLOWED.test(c)))];
    if (invalid.length > 0) {
      // Invisible characters are named by their code so that the message still says something.
      const shown = invalid.map((c) =>
        /[\p{L}\p{N}\p{P}\p{S}]/u.test(c) ? c : `U+${c.codePointAt(0)!.toString(16).toUpperCase()}`,
      );
      ctx.addIssue({ code: 'custom', message: networkMessages.nameInvalid(shown) });
    }
  }),
);

/**
 * A CIDR block for a network: a private IPv4 network (RFC 1918 or RFC 6598) given by its network
 * address, with a prefix of 22 to 27. Spaces around the parts are ignored; a space inside a
 * number is not.
 */
export const networkCidrSchema = z.pipe(
  // Only a value that can still be a block is tidied: the length check below refuses the rest.
  z.transform((v): unknown =>
    typeof v === 'string' && v.length <= 64 && !/\d\s+\d/.test(v) ? v.replace(/\s+/g, '') : v,
  ),
  z.string({ error: networkMessages.cidrRequired }).check(
    z.minLength(1, { error: networkMessages.cidrRequired, abort: true }),
    z.maxLength(18, { error: networkMessages.cidrInvalid, abort: true }),
    z.refine((v) => !/\s/.test(v) && parseCidr(v) !== null, {
      error: networkMessages.cidrInvalid,
      abort: true,
    }),
    z.refine((v) => isPrivateBlock(parseCidr(v)!), {
      error: networkMessages.cidrPrivate,
      abort: true,
    }),
    z.superRefine((v, ctx) => {
      const cidr = parseCidr(v)!;
      if (cidr.hostBitsSet)
        ctx.addIssue({ code: 'custom', message: networkMessages.cidrHostBits(cidr.text) });
    }),
    z.refine((v) => {
      const prefix = parseCidr(v)!.prefix;
      return prefix >= FORM_PREFIX_MIN && prefix <= FORM_PREFIX_MAX;
    }, networkMessages.cidrPrefix),
  ),
);

/** One or two IP addresses separated by a comma (spaces allowed). */
const dnsServersSchema = z.pipe(
  z.nullish(
    z.string().check(
      z.trim(),
      z.maxLength(40, { abort: true }),
      z.refine((v) => {
        if (v === '') return true;
        const parts = v.split(',').map((p) => p.trim());
        return parts.length <= 2 && parts.every(isIpAddress);
      }, networkMessages.dnsInvalid),
    ),
  ),
  z.transform((v) => v || null),
);

// ---------------------------------------------------------------------------------------------
// Networks

export type { NetworkSortColumn };

export const listNetworksQuery = z.extend(pageQuery, {
  sortColumn: z._default(z.enum(networkSortColumns), 'name'),
  sortDescending: z._default(z.stringbool(), false),
  regionId: z.optional(id),
});
export type ListNetworksQuery = z.output<typeof listNetworksQuery>;

/** Spec section 3 "Network list row". */
export const networkRow = z.object({
  id: z.int(),
  name: z.string(),
  cidrBlock: z.string(),
  region: z.string(),
  connectedVms: z.int(),
});
export type NetworkRow = z.infer<typeof networkRow>;
export const listNetworksResponse = envelope(paged(networkRow));
export type NetworkPage = z.infer<typeof listNetworksResponse>['data'];

export const networkIdParam = z.object({ id });

/** Spec section 3 "Network details", plus what the edit form and the Delete button need. */
export const networkDetails = z.object({
  id: z.int(),
  name: z.string(),
  regionId: z.int(),
  region: z.string(),
  description: z.string(),
  cidrBlock: z.string(),
  /** The address outbound traffic leaves from (SNAT), when SNAT is on. */
  snat: z.nullable(z.string()),
  snatEnabled: z.boolean(),
  gatewayIp: z.nullable(z.string()),
  dnsNameservers: z.array(z.string()),
  createdAt: z.date(),
  updatedAt: z.date(),
  networkType,
  allocationPools: z.array(z.object({ start: z.string(), end: z.string() })),
  /** The number of VMs on the network. */
  usedIPAddresses: z.int(),
  /** The sum of the pool sizes. */
  totalIPAddresses: z.int(),
  dhcpServerEnabled: z.boolean(),
  dhcpStartAddress: z.nullable(z.string()),
  dhcpEndAddress: z.nullable(z.string()),
  defaultRouteEnabled: z.boolean(),
  defaultRoute: z.nullable(z.string()),
  serveDNSServersEnabled: z.boolean(),
  connectedVms: z.int(),
});
export type NetworkDetails = z.infer<typeof networkDetails>;
export const networkDetailsResponse = envelope(networkDetails);

/** Spec section 3 "Connected VM". */
export const connectedVm = z.object({
  id: z.int(),
  name: z.string(),
  privateIp: z.nullable(z.string()),
});
export type ConnectedVm = z.infer<typeof connectedVm>;
export const connectedVmsResponse = envelope(z.array(connectedVm));

export const cidrDetailsQuery = z.object({
  cidr: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, networkMessages.cidrRequired),
      z.maxLength(18, { abort: true }),
    ),
  /** With the region, the warning also names overlaps with the company's networks there. */
  regionId: z.optional(id),
  /** The network being edited, left out of the overlap check. */
  networkId: z.optional(id),
});
export type CidrDetailsQuery = z.output<typeof cidrDetailsQuery>;
/** Spec section 3 "CIDR details". */
export const cidrDetails = z.object({
  cidr: z.string(),
  dhcpStartAddress: z.string(),
  dhcpEndAddress: z.string(),
  gatewayIp: z.string(),
  warning: z.nullable(z.string()),
});
export type CidrDetails = z.infer<typeof cidrDetails>;
export const cidrDetailsResponse = envelope(cidrDetails);

const networkFields = {
  name: networkNameSchema,
  description: z.pipe(
    z.nullish(
      z.string().check(
        z.maxLength(NETWORK_DESCRIPTION_MAX, {
          error: networkMessages.descriptionTooLong,
          abort: true,
        }),
      ),
    ),
    z.transform((v) => v?.trim() ?? ''),
  ),
  cidrBlock: networkCidrSchema,
  networkType,
  snatEnabled: z._default(z.boolean(), true),
  dhcpServerEnabled: z._default(z.boolean(), true),
  dhcpStartAddress: optionalIp,
  dhcpEndAddress: optionalIp,
  defaultRouteEnabled: z._default(z.boolean(), true),
  defaultRoute: optionalIp,
  serveDNSServersEnabled: z._default(z.boolean(), true),
  /** One or two addresses separated by a comma. */
  dnsServers: dnsServersSchema,
};

/**
 * A standard network needs its DHCP range, default route and DNS servers; a custom one is layer 2
 * only, and those are cleared. The addresses must lie inside the block.
 */
function checkAddressing(
  body: {
    cidrBlock: string;
    networkType: NetworkType;
    dhcpStartAddress: string | null;
    dhcpEndAddress: string | null;
    defaultRoute: string | null;
    dnsServers: string | null;
  },
  ctx: z.core.$RefinementCtx,
) {
  if (body.networkType !== 'standard') return;
  const required: [keyof typeof body, string][] = [
    ['dhcpStartAddress', networkMessages.dhcpStartRequired],
    ['dhcpEndAddress', networkMessages.dhcpEndRequired],
    ['defaultRoute', networkMessages.defaultRouteRequired],
    ['dnsServers', networkMessages.dnsRequired],
  ];
  for (const [field, message] of required) {
    if (!body[field]) ctx.addIssue({ code: 'custom', path: [field], message });
  }
  const cidr = parseCidr(body.cidrBlock);
  if (!cidr) return;
  for (const field of ['dhcpStartAddress', 'dhcpEndAddress', 'defaultRoute'] as const) {
    const address = body[field];
    if (address && !cidr.isHost(address)) {
      ctx.addIssue({ code: 'custom', path: [field], message: networkMessages.outsideCidr });
    }
  }
  const { dhcpStartAddress: start, dhcpEndAddress: end, defaultRoute: gateway } = body;
  if (start && end && cidr.isHost(start) && cidr.isHost(end)) {
    if (cidr.toNumber(start) > cidr.toNumber(end)) {
      ctx.addIssue({
        code: 'custom',
        path: ['dhcpEndAddress'],
        message: networkMessages.dhcpOrder,
      });
    } else if (gateway && cidr.isHost(gateway) && cidr.inRange(gateway, start, end)) {
      ctx.addIssue({
        code: 'custom',
        path: ['dhcpStartAddress'],
        message: networkMessages.dhcpHoldsGateway,
      });
    }
  }
}

export const createNetworkBody = z
  .object({
    ...networkFields,
    regionId: z.coerce
      .number({ error: networkMessages.regionRequired })
      .check(z.int(), z.positive(networkMessages.regionRequired), z.lte(2_147_483_647)),
  })
  .check(z.superRefine(checkAddressing));
export type CreateNetworkBody = z.input<typeof createNetworkBody>;
export const createNetworkResponse = envelope(z.object({ id: z.int() }));

/** The same as create without the region, which is fixed once the network exists. */
export const updateNetworkBody = z.object(networkFields).check(z.superRefine(checkAddressing));
export type UpdateNetworkBody = z.input<typeof updateNetworkBody>;

export const networkActionResponse = emptyEnvelope;

// ---------------------------------------------------------------------------------------------
// Network interfaces of a VM, and public IPs

export const interfaceStatuses = ['Attaching', 'Active', 'Detaching', 'Error'] as const;

/** Spec section 3 "Network adapter (interface)", with its network and state. */
export const networkAdapter = z.object({
  id: z.int(),
  /** 1 is the primary interface. */
  vmnic: z.int(),
  networkId: z.int(),
  networkName: z.string(),
  cidrBlock: z.string(),
  gatewayIp: z.nullable(z.string()),
  privateIp: z.nullable(z.string()),
  macAddress: z.string(),
  /** null: Not Configured; an address: NAT Enabled. */
  publicIp: z.nullable(z.string()),
  /** A public IP can be had only on a network with SNAT (standard). */
  snatEnabled: z.boolean(),
  status: z.enum(interfaceStatuses),
  /** What went wrong with the interface's last operation, if anything. */
  statusMessage: z.nullable(z.string()),
});
export type NetworkAdapter = z.infer<typeof networkAdapter>;
export const netAdaptersResponse = envelope(z.array(networkAdapter));

/** Spec section 3 "Available network". */
export const availableNetwork = z.object({
  id: z.int(),
  name: z.string(),
  cidrBlock: z.string(),
});
export type AvailableNetwork = z.infer<typeof availableNetwork>;
export const availableNetworksResponse = envelope(z.array(availableNetwork));

export const addNetworkInterfaceBody = z.object({
  networkId: z.pipe(
    z.transform((v): unknown => (v === null || v === '' ? undefined : v)),
    z.coerce
      .number({ error: networkMessages.selectNetworkFirst })
      .check(z.int(), z.positive(), z.lte(2_147_483_647)),
  ),
});
export type AddNetworkInterfaceBody = z.input<typeof addNetworkInterfaceBody>;
export const addNetworkInterfaceResponse = envelope(z.object({ interfaceId: z.int() }));

export const removeNetworkInterfaceParams = z.object({ id, networkId: id });
