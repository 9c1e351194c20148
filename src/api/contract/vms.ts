import { z } from './zod';
import { emptyEnvelope, envelope, idSchema, pageQuery, paged } from './envelope';
import { sshKeyIdsSchema } from './ssh-keys';
import {
  vmSortColumns,
  vmStatusFilters,
  type VmSortColumn,
  type VmStatusFilter,
} from './search-values';

/** Spec section 3: every status a VM can show. */
export const vmStatuses = [
  'Running',
  'Stopped',
  'Shutoff',
  'Error',
  'Provisioning',
  'Starting',
  'Stopping',
  'Resizing',
  'Reinstalling',
  'Restoring',
] as const;
export const vmStatus = z.enum(vmStatuses);
export type VmStatus = z.infer<typeof vmStatus>;

/**
 * The statuses each value of the list's status filter stands for, as the badges group them:
 * stopped is Stopped or Shutoff (both red), in progress any transition.
 */
export const vmStatusGroups: Record<VmStatusFilter, readonly VmStatus[]> = {
  running: ['Running'],
  stopped: ['Stopped', 'Shutoff'],
  error: ['Error'],
  inProgress: ['Provisioning', 'Starting', 'Stopping', 'Resizing', 'Reinstalling', 'Restoring'],
};

/** Spec section 4: what each status allows. */
export const vmRules = {
  canStart: (s: VmStatus) => s === 'Stopped' || s === 'Shutoff',
  canStop: (s: VmStatus) => s === 'Running',
  canReset: (s: VmStatus) => s === 'Running',
  /** A transition is under way: nothing else may start until it ends. */
  isTransitional: (s: VmStatus) =>
    s === 'Provisioning' ||
    s === 'Starting' ||
    s === 'Stopping' ||
    s === 'Resizing' ||
    s === 'Reinstalling' ||
    s === 'Restoring',
  canResize: (s: VmStatus) => s === 'Running' || s === 'Stopped' || s === 'Shutoff',
  /** Snapshots are taken and restored of a VM at rest, running or not. */
  canSnapshot: (s: VmStatus) => s === 'Running' || s === 'Stopped' || s === 'Shutoff',
  canDelete: (s: VmStatus) =>
    s === 'Running' || s === 'Stopped' || s === 'Shutoff' || s === 'Error',
  /** A VM in Error too: reinstalling is how a broken server is mended. */
  canReinstall: (s: VmStatus) =>
    s === 'Running' || s === 'Stopped' || s === 'Shutoff' || s === 'Error',
} as const;

export const INSTANCES_MIN = 1;
export const INSTANCES_MAX = 10;
export const VM_NAME_MAX = 63;
/** A host name: letters, digits, dots, underscores and hyphens, starting with a letter or digit. */
export const VM_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export const vmMessages = {
  notFound: 'Virtual machine not found',
  noGeneratedKey: 'This VM was given your SSH keys only: it has no private key to download',
  noKeyChosen: 'Choose at least one of your SSH keys, or have a key pair generated',
  fillEmptyFields: 'Please fill in empty fields',
  instancesRange: 'Number of copies must be between 1 to 10',
  noProvider: 'Chosen configuration has no possible provider',
  nameRequired: 'VM name is required',
  nameTooLong: `VM name must not exceed ${VM_NAME_MAX} characters`,
  nameCharacters:
    'VM name can contain only letters, digits, dots, underscores and hyphens, and must start with a letter or digit',
  nameWithCopiesTooLong: `VM name is too long for numbered copies (at most ${VM_NAME_MAX - 3} characters)`,
  regionNotFound: 'Region not found',
  imageNotFound: 'Image not found in this region',
  configurationNotFound: 'Configuration not found',
  providerNotFound: 'The provider does not offer this configuration in this region',
  teamNotFound: 'Team not found',
  stillProvisioning: 'VM is still provisioning',
  mustBeRunning: 'The VM must be running to do that',
  mustBeStopped: 'The VM must be stopped or shut off to start it',
  busy: 'The VM is busy with another operation; try again when it ends',
  notDeletable: 'The VM cannot be deleted while an operation is under way',
  upgradeNotLarger: 'Choose a configuration with more CPU cores than the current one',
  upgradeNotOffered: "The VM's provider does not offer this configuration in its region",
  vmQuota: (limit: number) => `The company has reached its limit of ${limit} VMs in this region`,
  vcpuQuota: (limit: number) =>
    `The company has reached its limit of ${limit} vCPUs in this region`,
  ramQuota: (limit: number) =>
    `The company has reached its limit of ${limit} GB of RAM in this region`,
  consoleUnavailable: 'The console is available only while the VM is running',
  noTeamAdminsOnly: 'Only Admins can manage VMs without a team',
  noChanges: 'No changes made',
  created: 'Virtual machine creation started',
  starting: 'VM is being started',
  stopping: 'VM is being stopped',
  resetting: 'VM is being reset',
  deleting: 'VM is being deleted',
  upgrading: 'The upgrade has started',
  updated: 'VM updated successfully',
  beingDeleted: 'The VM is being deleted',
  reinstalling: 'The reinstall has started',
  reinstallImageNotOffered: "The VM's provider does not offer this image in its region",
  reinstallNoServer:
    'This VM was never built at its provider: delete it and create a new one instead',
} as const;

const id = idSchema;
/** A required id in the create form: a missing one is an empty field (spec section 5). */
const requiredId = z.pipe(
  z.transform((value): unknown => (value === null || value === '' ? undefined : value)),
  z.coerce
    .number({ error: vmMessages.fillEmptyFields })
    .check(
      z.int(vmMessages.fillEmptyFields),
      z.positive(vmMessages.fillEmptyFields),
      z.lte(2_147_483_647),
    ),
);

export const vmNameSchema = z
  .string({ error: vmMessages.nameRequired })
  .check(
    z.trim(),
    z.minLength(1, { error: vmMessages.nameRequired, abort: true }),
    z.maxLength(VM_NAME_MAX, { error: vmMessages.nameTooLong, abort: true }),
    z.regex(VM_NAME_PATTERN, vmMessages.nameCharacters),
  );

// ---------------------------------------------------------------------------------------------
// Lookups (spec section 3 "Lookups" and "Configuration")

export const lookupItem = z.object({ id: z.int(), name: z.string() });
export type LookupItem = z.infer<typeof lookupItem>;
export const lookupListResponse = envelope(z.array(lookupItem));

/** A region as one label: "Country - Region". */
export const combinedRegion = z.object({ id: z.int(), countryRegion: z.string() });
export type CombinedRegion = z.infer<typeof combinedRegion>;
export const combinedRegionsResponse = envelope(z.array(combinedRegion));

export const regionDetails = z.object({
  id: z.int(),
  name: z.string(),
  city: z.string(),
  countryId: z.int(),
  country: z.string(),
  countryRegion: z.string(),
});
export type RegionDetails = z.infer<typeof regionDetails>;
export const regionResponse = envelope(regionDetails);

/** The fixed size keys of the catalogue, in size order (also the dashboard's keys). */
export const sizeKeys = ['micro', 'extraSmall', 'small', 'medium', 'large', 'extraLarge'] as const;
export const sizeKey = z.enum(sizeKeys);
export type SizeKey = z.infer<typeof sizeKey>;

/** A VM size: cpu in cores, ram and disk in GB. */
export const configuration = z.object({
  id: z.int(),
  key: sizeKey,
  name: z.string(),
  cpu: z.int(),
  ram: z.int(),
  disk: z.int(),
});
export type Configuration = z.infer<typeof configuration>;
export const configurationsResponse = envelope(z.array(configuration));

export const lookupIdParam = z.object({ id });
export const regionIdParam = z.object({ regionId: id });

export const listProvidersQuery = z.object({ imageId: id, configurationId: id });
export type ListProvidersQuery = z.output<typeof listProvidersQuery>;

/** `vmId`: only the images that VM's provider offers (the reinstall dialog's choice). */
export const listImagesQuery = z.object({ vmId: z.optional(id) });

/** The sizes offered for a new VM (`imageId`) or as an upgrade of an existing one (`vmId`). */
export const vmConfigurationsQuery = z
  .object({ imageId: z.optional(id), vmId: z.optional(id) })
  .check(
    z.refine((q) => (q.imageId === undefined) !== (q.vmId === undefined), {
      error: 'Give either imageId or vmId',
      path: ['imageId'],
    }),
  );
export type VmConfigurationsQuery = z.output<typeof vmConfigurationsQuery>;

// ---------------------------------------------------------------------------------------------
// List and details

export type { VmSortColumn };

export const listVmsQuery = z.extend(pageQuery, {
  sortColumn: z._default(z.enum(vmSortColumns), 'name'),
  sortDescending: z._default(z.stringbool(), false),
  /** Only the VMs of this team. */
  teamId: z.optional(id),
  /** Only the VMs in these statuses: running, stopped (Stopped or Shutoff), error, inProgress. */
  status: z.optional(z.enum(vmStatusFilters)),
  /** `true`: only the VMs holding a public IP (those the Dashboard's "Public IPs in use" counts). */
  publicIp: z.optional(z.stringbool()),
});
export type ListVmsQuery = z.output<typeof listVmsQuery>;

/**
 * Where a customer reaches the VM: the public IP of its lowest-numbered interface that has one,
 * else its primary interface's private address; null while it has neither (being built, or only
 * on layer 2 networks).
 */
export const primaryIp = z.nullable(
  z.object({ address: z.string(), kind: z.enum(['public', 'private']) }),
);
export type PrimaryIp = z.infer<typeof primaryIp>;

export const vmRow = z.object({
  id: z.int(),
  name: z.string(),
  status: vmStatus,
  /** The size's name. */
  configuration: z.string(),
  cpu: z.int(),
  ram: z.int(),
  createdAt: z.date(),
  primaryIp,
});
export type VmRow = z.infer<typeof vmRow>;
export const listVmsResponse = envelope(paged(vmRow));
export type VmPage = z.infer<typeof listVmsResponse>['data'];

export const vmIdParam = z.object({ id });

export const vmDetails = z.object({
  status: vmStatus,
  /** The console can be opened now (the VM runs and its provider offers one). */
  consoleAvailable: z.boolean(),
  /** Why the VM is in Error, or what its current operation is doing; null when there is nothing to say. */
  statusMessage: z.nullable(z.string()),
  /** The caller's role for this VM (1 for Admins): the console offers only what it allows. */
  yourRoleId: z.int(),
  virtualMachine: z.object({
    id: z.int(),
    name: z.string(),
    country: z.string(),
    configuration: z.string(),
    configurationId: z.int(),
    region: z.string(),
    regionId: z.int(),
    image: z.string(),
    /** The image it was built (or last reinstalled) from: the reinstall dialog's first choice. */
    imageId: z.int(),
    provider: z.string(),
    createdAt: z.date(),
    updatedAt: z.date(),
    cpu: z.int(),
    ram: z.int(),
    disk: z.int(),
    username: z.string(),
    teamId: z.nullable(z.int()),
    teamName: z.nullable(z.string()),
    primaryIp,
    /** A key pair was generated for it: "Download Private Key" serves its private key. */
    hasPrivateKey: z.boolean(),
  }),
  /** Percentages, 0-100; 0 when the VM does not run. */
  usage: z.object({ cpuUsage: z.number(), ramUsage: z.number() }),
});
export type VmDetails = z.infer<typeof vmDetails>;
export const vmDetailsResponse = envelope(vmDetails);

export const vmPasswordResponse = envelope(z.object({ sshPassword: z.string() }));
export const vmAccessKeyResponse = envelope(z.object({ privateKey: z.string() }));
export const vmConsoleResponse = envelope(z.object({ consoleUrl: z.string() }));

// ---------------------------------------------------------------------------------------------
// Writes

/** Spec section 3 "Create-VM payload". */
export const createVmBody = z
  .object({
    regionId: requiredId,
    imageId: requiredId,
    configurationId: requiredId,
    providerId: requiredId,
    name: vmNameSchema,
    numberOfInstances: z.pipe(
      z.transform((value): unknown => (value === null || value === '' ? undefined : value)),
      z.coerce
        .number({ error: vmMessages.fillEmptyFields })
        .check(
          z.int(vmMessages.instancesRange),
          z.gte(INSTANCES_MIN, vmMessages.instancesRange),
          z.lte(INSTANCES_MAX, vmMessages.instancesRange),
        ),
    ),
    teamId: z.nullish(id),
    allocatePublicIp: z._default(z.boolean(), true),
    /** The caller's account keys (`sshKeys/list`) the guest accepts. */
    sshKeyIds: z._default(sshKeyIdsSchema, []),
    /**
     * A key pair is generated as well (its private key served by `accessKey`); false: the account
     * keys only, which must then name at least one.
     */
    generateKeyPair: z._default(z.boolean(), true),
  })
  .check(
    z.refine((body) => body.generateKeyPair || body.sshKeyIds.length > 0, {
      error: vmMessages.noKeyChosen,
      path: ['sshKeyIds'],
    }),
  );
export type CreateVmBody = z.input<typeof createVmBody>;
export const createVmResponse = envelope(z.object({ ids: z.array(z.int()) }));

/** Spec section 3 "Change-configuration payload". */
export const changeConfigurationBody = z.object({ id, configurationId: id });
export type ChangeConfigurationBody = z.input<typeof changeConfigurationBody>;

/**
 * `POST /virtualMachines/reinstall/{id}`: an image the VM's provider offers in its region, and
 * the account keys the guest is given instead of a generated key pair (none: a new pair).
 */
export const reinstallVmBody = z.object({
  imageId: requiredId,
  /** Given (one or more): the guest gets only these keys, and no key pair is generated. */
  sshKeyIds: z.optional(sshKeyIdsSchema),
});
export type ReinstallVmBody = z.input<typeof reinstallVmBody>;

/** `PUT /virtualMachines/edit/{id}`: only the changed fields; `teamId: null` takes the VM out of its team. */
export const editVmBody = z
  .object({ name: z.optional(vmNameSchema), teamId: z.optional(z.nullable(id)) })
  .check(
    z.refine((b) => b.name !== undefined || b.teamId !== undefined, {
      error: vmMessages.noChanges,
      path: ['name'],
    }),
  );
export type EditVmBody = z.input<typeof editVmBody>;

export const vmActionResponse = emptyEnvelope;

// ---------------------------------------------------------------------------------------------
// Dashboard (spec section 3 "Dashboard data")

const count = z.int().check(z.gte(0));
export const sizeCounts = z.object({
  micro: count,
  extraSmall: count,
  small: count,
  medium: count,
  large: count,
  extraLarge: count,
});
export type SizeCounts = z.infer<typeof sizeCounts>;
export const dashboardData = z.object({
  currentMonth: sizeCounts,
  previousMonth: sizeCounts,
  ytd: sizeCounts,
});
export type DashboardData = z.infer<typeof dashboardData>;
export const dashboardDataResponse = envelope(dashboardData);
