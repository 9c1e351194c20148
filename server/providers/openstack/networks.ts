import type { NetworkSpec } from '../driver';
import { cloudAllocationPools } from './allocation-pools';
import { networkTag, regionOf, regionTag, type Cloud } from './clouds';
import type { OpenStackRegion } from './config';
import { ignoreMissing } from './http';
import type { RouterGateway, SubnetFields } from './network';

/**
 * A product network on one cloud: a Neutron network, its subnet and its router, each tagged with
 * the network's own tag and found again by it.
 */

export const networkOf = (cloud: Cloud, id: string) => cloud.network.networkTagged(networkTag(id));
export const subnetOf = (cloud: Cloud, id: string) => cloud.network.subnetTagged(networkTag(id));
export const routerOf = (cloud: Cloud, id: string) => cloud.network.routerTagged(networkTag(id));

/** The region's external network: routers' gateways and floating IPs. */
export async function externalNetworkId(cloud: Cloud, region: OpenStackRegion): Promise<string> {
  return (
    (await cloud.network.externalNetworkNamed(region.externalNetwork)) ?? region.externalNetwork
  );
}

export async function ensureNetwork(
  cloud: Cloud,
  regionKey: string,
  id: string,
  spec: NetworkSpec,
) {
  const tags = [networkTag(id), regionTag(regionKey)];
  const layer2 = !spec.dhcp && !spec.gatewayIp;
  let network = await networkOf(cloud, id);
  if (!network) {
    // The ports' default. Nova refuses to plug a port into a network with port security and
    // no subnet, whatever the port's own setting: on a layer-2 network each port sets its own.
    network = await cloud.network.createNetwork({
      name: spec.name,
      port_security_enabled: !layer2,
    });
    await cloud.network.setTags('networks', network.id, tags);
  }
  // A network without address management (no DHCP, no gateway) is layer 2 only: no subnet, so
  // that its ports carry no address (Nova refuses a port without one on a network with subnets).
  if (layer2) return;
  let subnetId = (await subnetOf(cloud, id))?.id;
  if (!subnetId) {
    subnetId = await cloud.network.createSubnet(network.id, subnetFields(spec, true));
    await cloud.network.setTags('subnets', subnetId, tags);
  }
  await ensureRouter(cloud, regionOf(cloud, regionKey), id, subnetId, spec);
}

/** Applies a changed network to its subnet and router (a layer-2 network has neither). */
export async function updateNetwork(
  cloud: Cloud,
  regionKey: string,
  id: string,
  spec: NetworkSpec,
) {
  const subnet = await subnetOf(cloud, id);
  if (!subnet) return;
  await cloud.network.updateSubnet(subnet.id, subnetFields(spec, false));
  await ensureRouter(cloud, regionOf(cloud, regionKey), id, subnet.id, spec);
}

export async function deleteNetwork(cloud: Cloud, id: string) {
  const router = await routerOf(cloud, id);
  if (router) await deleteRouter(cloud, router.id);
  const network = await networkOf(cloud, id);
  if (network) await ignoreMissing(cloud.network.deleteNetwork(network.id));
}

/**
 * A network with a gateway reaches the external network through a router: its servers' public
 * IPs (floating IPs) need one. Outbound traffic leaves from the SNAT address when there is one.
 */
async function ensureRouter(
  cloud: Cloud,
  region: OpenStackRegion,
  id: string,
  subnetId: string,
  spec: NetworkSpec,
) {
  const router = await routerOf(cloud, id);
  if (!spec.gatewayIp) {
    if (router) await deleteRouter(cloud, router.id);
    return;
  }
  const gateway: RouterGateway = {
    network_id: await externalNetworkId(cloud, region),
    enable_snat: spec.snatIp !== null,
    ...(spec.snatIp && { external_fixed_ips: [{ ip_address: spec.snatIp }] }),
  };
  if (router) {
    await cloud.network.setRouterGateway(router.id, gateway);
    return;
  }
  const routerId = await cloud.network.createRouter(`${spec.name}-router`, gateway);
  await cloud.network.setTags('routers', routerId, [networkTag(id), regionTag(region.key)]);
  await cloud.network.addRouterInterface(routerId, subnetId);
}

async function deleteRouter(cloud: Cloud, routerId: string) {
  for (const port of await cloud.network.portsOf(routerId, 'network:router_interface')) {
    await ignoreMissing(cloud.network.removeRouterInterface(routerId, port.id));
  }
  await ignoreMissing(cloud.network.deleteRouter(routerId));
}

/** A subnet's fields from the product's network (CIDR only when created). */
function subnetFields(spec: NetworkSpec, withCidr: boolean): SubnetFields {
  return {
    name: spec.name,
    ...(withCidr ? { cidr: spec.cidr } : {}),
    gateway_ip: spec.gatewayIp,
    enable_dhcp: spec.dhcp !== null,
    ...(spec.dhcp ? { allocation_pools: cloudAllocationPools(spec) } : {}),
    dns_nameservers: spec.dnsServers,
    host_routes:
      spec.defaultRoute && !spec.gatewayIp
        ? [{ destination: '0.0.0.0/0', nexthop: spec.defaultRoute }]
        : [],
  };
}
