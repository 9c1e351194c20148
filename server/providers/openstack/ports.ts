import { ProviderRejection, type PortRequest } from '../driver';
import { regionTag, splitRef, type Cloud } from './clouds';
import type { OpenStackRegion } from './config';
import { ignoreMissing } from './http';
import { externalNetworkId, networkOf, subnetOf } from './networks';

/** The name and tag of the security group every port of the product is in. */
const OPEN_GROUP = 'lp-open';

/** The port the product asked for (its address and MAC), on the network's copy in this cloud. */
export async function ensurePort(
  cloud: Cloud,
  regionKey: string,
  request: PortRequest,
  tag: string,
): Promise<string> {
  const existing = await cloud.network.portTagged(tag);
  if (existing) return existing.id;
  const [, networkId] = splitRef(request.networkRef);
  const network = await networkOf(cloud, networkId);
  if (!network) throw new ProviderRejection(`The network is not in ${cloud.provider.name}`);
  const subnet = await subnetOf(cloud, networkId);
  const fixedIp =
    subnet && request.fixedIp !== null
      ? { subnet_id: subnet.id, ip_address: request.fixedIp }
      : null;
  const portId = await cloud.network.createPort({
    network_id: network.id,
    mac_address: request.macAddress,
    fixed_ips: fixedIp ? [fixedIp] : [],
    // Anti-spoofing: the port sends from its MAC and address only, and no DHCP answers.
    // A port without an address (a layer-2 network, whose addresses are the company's own
    // choice) is bound to its MAC alone.
    port_security_enabled: true,
    security_groups: [await openSecurityGroup(cloud)],
    ...(!fixedIp && {
      allowed_address_pairs: [{ ip_address: '0.0.0.0/0' }, { ip_address: '::/0' }],
    }),
  });
  await cloud.network.setTags('ports', portId, [tag, regionTag(regionKey)]);
  return portId;
}

/**
 * The account's security group that lets everything through: the product has no firewall of
 * its own, and port security (anti-spoofing) needs a group on each port. Made once per cloud,
 * tagged when complete (a group found by its tag has its rules).
 */
function openSecurityGroup(cloud: Cloud): Promise<string> {
  if (!cloud.openGroup) {
    const group = ensureOpenSecurityGroup(cloud);
    group.catch(() => {
      if (cloud.openGroup === group) cloud.openGroup = undefined;
    });
    cloud.openGroup = group;
  }
  return cloud.openGroup;
}

async function ensureOpenSecurityGroup(cloud: Cloud): Promise<string> {
  const existing = await cloud.network.securityGroupTagged(OPEN_GROUP);
  if (existing) return existing.id;
  const id = await cloud.network.createSecurityGroup(
    OPEN_GROUP,
    'Launchpad: all traffic (anti-spoofing comes from port security)',
  );
  // A new group lets everything out already.
  for (const ethertype of ['IPv4', 'IPv6'] as const) {
    await cloud.network.allowIngress(id, ethertype);
  }
  await cloud.network.setTags('security-groups', id, [OPEN_GROUP]);
  return id;
}

/** The public address NATed to the port: a floating IP of that address, made once. */
export async function ensureFloatingIp(
  cloud: Cloud,
  region: OpenStackRegion,
  portId: string,
  address: string,
) {
  const [existing] = await cloud.network.floatingIpsAt(address);
  if (existing?.port_id === portId) return;
  if (existing) throw new ProviderRejection(`${address} is in use in ${cloud.provider.name}`);
  await cloud.network.createFloatingIp(await externalNetworkId(cloud, region), address, portId);
}

export async function releaseFloatingIps(cloud: Cloud, portId: string) {
  for (const fip of await cloud.network.floatingIpsOf(portId)) {
    await ignoreMissing(cloud.network.deleteFloatingIp(fip.id));
  }
}

export async function deletePortAndAddresses(cloud: Cloud, portId: string) {
  await releaseFloatingIps(cloud, portId);
  await ignoreMissing(cloud.network.deletePort(portId));
}
