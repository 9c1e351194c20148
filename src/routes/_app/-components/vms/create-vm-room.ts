import type { CompanyLimits } from '../../../../api/contract/limits';

/** What creating VMs takes: the VMs, their cores and RAM, and a public IP each when asked. */
const vmResources = ['vms', 'vcpus', 'ramGb', 'publicIps'] as const;
type VmResource = (typeof vmResources)[number];

/** What is left of each resource in a region; absent: no limit on it. */
export type Room = Partial<Record<VmResource, number>>;

const isVmResource = (resource: string): resource is VmResource =>
  (vmResources as readonly string[]).includes(resource);

/**
 * The room in a region: for each resource, the smallest `left` among the entries that bind there
 * (the region's own and the all-regions ones, whoever set them).
 */
export function roomIn(limits: CompanyLimits['limits'], regionId: number): Room {
  const room: Room = {};
  for (const { resource, regionId: where, left } of limits) {
    if (!isVmResource(resource) || (where !== null && where !== regionId)) continue;
    room[resource] = Math.min(room[resource] ?? Infinity, left);
  }
  return room;
}

const nouns: Record<VmResource, [one: string, many: string]> = {
  vms: ['VM', 'VMs'],
  vcpus: ['vCPU', 'vCPUs'],
  ramGb: ['GB of RAM', 'GB of RAM'],
  publicIps: ['public IP address', 'public IP addresses'],
};
const count = (n: number, resource: VmResource) => `${n} ${nouns[resource][n === 1 ? 0 : 1]}`;

export interface RoomChoice {
  /** The chosen size's cores and GB of RAM, once a size is chosen. */
  size?: { cpu: number; ram: number };
  /** The chosen number of instances, once chosen. */
  instances?: number;
  publicIp: boolean;
}

export interface RoomNote {
  /** What is left, as one sentence. */
  text: string;
  /** Why the choice does not fit, and what to change; null when it fits. */
  shortfall: string | null;
}

/**
 * What the room in the region lets the user create, in words: "You can create 2 more VMs in this
 * region (8 vCPUs, 16 GB of RAM left)", of the chosen size once there is one; and, when the
 * chosen number of instances does not fit, which resource runs short. Null when no limit bears
 * on creating VMs there.
 */
export function roomNote(room: Room, { size, instances, publicIp }: RoomChoice): RoomNote | null {
  const perVm: Room = {
    vms: 1,
    ...(size ? { vcpus: size.cpu, ramGb: size.ram } : {}),
    ...(publicIp ? { publicIps: 1 } : {}),
  };
  const bearing = vmResources.filter(
    (resource) => room[resource] !== undefined && (resource !== 'publicIps' || publicIp),
  );
  if (bearing.length === 0) return null;

  // How many VMs fit under each limit that a VM's needs are known for, the tightest first.
  const fits = vmResources
    .filter((resource) => room[resource] !== undefined && (perVm[resource] ?? 0) > 0)
    .map((resource) => ({ resource, most: Math.floor(room[resource]! / perVm[resource]!) }))
    .sort((a, b) => a.most - b.most);
  const most = fits[0]?.most;

  const left = bearing.filter((resource) => resource !== 'vms');
  const leftText = left.map((resource) => count(room[resource]!, resource)).join(', ');
  const ofSize = size ? ' of this size' : '';
  let text: string;
  if (most === undefined) text = `You have ${leftText} left in this region`;
  else {
    const what =
      most === 0
        ? `You cannot create any more VMs${ofSize} in this region`
        : `You can create ${most} more ${most === 1 ? 'VM' : 'VMs'}${ofSize} in this region`;
    text = left.length > 0 ? `${what} (${leftText} left)` : what;
  }
  text += '.';

  // With no room at all, say why before an instance count is chosen (none would fit).
  const asked = instances ?? (most === 0 ? 1 : undefined);
  let shortfall: string | null = null;
  if (most !== undefined && asked !== undefined && asked > most) {
    // The limit that allows the fewest: the one to name, whatever else also runs short.
    const short = fits[0]!.resource;
    shortfall = [shortfallReason(short, asked, perVm, room), remedy(short, most)]
      .filter(Boolean)
      .join(' ');
  }
  return { text, shortfall };
}

function shortfallReason(short: VmResource, instances: number, perVm: Room, room: Room) {
  const left = room[short]!;
  const vms = count(instances, 'vms');
  const verb = (n: number, one: string, many: string) => (n === 1 ? one : many);
  // The sentence above already says that none are left.
  if (short === 'vms')
    return left === 0
      ? ''
      : `${vms} ${verb(instances, 'is', 'are')} more than the ${left} left in this region.`;
  const need = count(instances * perVm[short]!, short);
  const what = short === 'publicIps' ? vms : `${vms} of this size`;
  return `${what} ${verb(instances, 'needs', 'need')} ${need}, and ${left} ${verb(left, 'is', 'are')} left in this region.`;
}

function remedy(short: VmResource, most: number) {
  const fewer = `Choose ${most} or fewer instances`;
  switch (short) {
    case 'vms':
      return most > 0 ? `${fewer}.` : 'Choose another region.';
    case 'publicIps':
      return most > 0
        ? `${fewer}, or turn the public IP address off.`
        : 'Turn the public IP address off, or choose another region.';
    default:
      return most > 0 ? `${fewer}, or a smaller size.` : 'Choose a smaller size or another region.';
  }
}
