import { z } from '../../../src/api/contract/zod';
import { id, ServiceClient, type ServiceSession } from './service-client';

const network = z.object({ id, status: z.string() });
const networkList = z.object({ networks: z.array(network) });
const networkTags = z.object({ network: z.object({ tags: z.array(z.string()) }) });
const subnetList = z.object({ subnets: z.array(z.object({ id })) });
const routerList = z.object({ routers: z.array(z.object({ id })) });
const port = z.object({
  id,
  /** The server the port is plugged into; empty when none. */
  device_id: z.string(),
  network_id: id,
  mac_address: z.string(),
  tags: z.array(z.string()),
});
export type NeutronPort = z.infer<typeof port>;
const portAnswer = z.object({ port });
const portList = z.object({ ports: z.array(z.object({ id, mac_address: z.string() })) });
const securityGroupList = z.object({ security_groups: z.array(z.object({ id })) });
const floatingIpList = z.object({
  floatingips: z.array(
    z.object({ id, floating_ip_address: z.string(), port_id: z.nullable(z.string()) }),
  ),
});

const createdNetwork = z.object({ network });
const createdSubnet = z.object({ subnet: z.object({ id }) });
const createdRouter = z.object({ router: z.object({ id }) });
const createdPort = z.object({ port: z.object({ id }) });
const createdGroup = z.object({ security_group: z.object({ id }) });

/** The resources the driver tags (Neutron's tag extension). */
export type Taggable = 'networks' | 'subnets' | 'routers' | 'ports' | 'security-groups';

/** A subnet's fields the product sets (its CIDR only when it is made). */
export interface SubnetFields {
  name: string;
  cidr?: string;
  gateway_ip: string | null;
  enable_dhcp: boolean;
  allocation_pools?: { start: string; end: string }[];
  dns_nameservers: string[];
  host_routes: { destination: string; nexthop: string }[];
}

/** A port as the driver makes it: the product's address and MAC, anti-spoofing on. */
export interface PortCreate {
  network_id: string;
  mac_address: string;
  fixed_ips: { subnet_id: string; ip_address: string }[];
  port_security_enabled: boolean;
  security_groups: string[];
  allowed_address_pairs?: { ip_address: string }[];
}

/** A router's gateway on the external network: its SNAT and, when chosen, its address. */
export interface RouterGateway {
  network_id: string;
  enable_snat: boolean;
  external_fixed_ips?: { ip_address: string }[];
}

/** Neutron: networks, subnets, routers, ports, security groups and floating IPs. */
export class NetworkClient {
  private readonly api: ServiceClient;

  constructor(session: ServiceSession) {
    this.api = new ServiceClient(session, 'network', 'Neutron');
  }

  // The account's own resources by tag (an administrator's lists hold every project's).

  async networkTagged(tag: string) {
    return (await this.api.read(networkList, await this.ownTagged('networks', tag))).networks[0];
  }

  async subnetTagged(tag: string) {
    return (await this.api.read(subnetList, await this.ownTagged('subnets', tag))).subnets[0];
  }

  async routerTagged(tag: string) {
    return (await this.api.read(routerList, await this.ownTagged('routers', tag))).routers[0];
  }

  async portTagged(tag: string) {
    return (await this.api.read(portList, await this.ownTagged('ports', tag))).ports[0];
  }

  async securityGroupTagged(tag: string) {
    const path = await this.ownTagged('security-groups', tag);
    return (await this.api.read(securityGroupList, path)).security_groups[0];
  }

  private async ownTagged(kind: Taggable, tag: string) {
    return `/v2.0/${kind}?tags=${tag}&project_id=${await this.api.projectId()}`;
  }

  /** Replaces the resource's tags. */
  setTags(kind: Taggable, resourceId: string, tags: string[]): Promise<void> {
    return this.api.send(`/v2.0/${kind}/${resourceId}/tags`, { method: 'PUT', body: { tags } });
  }

  addTag(kind: Taggable, resourceId: string, tag: string): Promise<void> {
    return this.api.send(`/v2.0/${kind}/${resourceId}/tags/${tag}`, { method: 'PUT' });
  }

  // Networks and subnets

  async createNetwork(body: { name: string; port_security_enabled: boolean }) {
    const answer = await this.api.read(createdNetwork, '/v2.0/networks', {
      method: 'POST',
      body: { network: body },
    });
    return answer.network;
  }

  async networkTagsOf(networkId: string): Promise<string[]> {
    return (await this.api.read(networkTags, `/v2.0/networks/${networkId}`)).network.tags;
  }

  /** The external network's id, when `nameOrId` is the name of one. */
  async externalNetworkNamed(nameOrId: string): Promise<string | undefined> {
    const path = `/v2.0/networks?router:external=true&name=${encodeURIComponent(nameOrId)}`;
    return (await this.api.read(networkList, path)).networks[0]?.id;
  }

  deleteNetwork(networkId: string): Promise<void> {
    return this.api.send(`/v2.0/networks/${networkId}`, { method: 'DELETE' });
  }

  async createSubnet(networkId: string, fields: SubnetFields): Promise<string> {
    const answer = await this.api.read(createdSubnet, '/v2.0/subnets', {
      method: 'POST',
      body: { subnet: { network_id: networkId, ip_version: 4, ...fields } },
    });
    return answer.subnet.id;
  }

  updateSubnet(subnetId: string, subnet: SubnetFields): Promise<void> {
    return this.api.send(`/v2.0/subnets/${subnetId}`, { method: 'PUT', body: { subnet } });
  }

  // Routers

  async createRouter(name: string, gateway: RouterGateway): Promise<string> {
    const answer = await this.api.read(createdRouter, '/v2.0/routers', {
      method: 'POST',
      body: { router: { name, external_gateway_info: gateway } },
    });
    return answer.router.id;
  }

  setRouterGateway(routerId: string, gateway: RouterGateway): Promise<void> {
    return this.api.send(`/v2.0/routers/${routerId}`, {
      method: 'PUT',
      body: { router: { external_gateway_info: gateway } },
    });
  }

  addRouterInterface(routerId: string, subnetId: string): Promise<void> {
    return this.api.send(`/v2.0/routers/${routerId}/add_router_interface`, {
      method: 'PUT',
      body: { subnet_id: subnetId },
    });
  }

  removeRouterInterface(routerId: string, portId: string): Promise<void> {
    return this.api.send(`/v2.0/routers/${routerId}/remove_router_interface`, {
      method: 'PUT',
      body: { port_id: portId },
    });
  }

  deleteRouter(routerId: string): Promise<void> {
    return this.api.send(`/v2.0/routers/${routerId}`, { method: 'DELETE' });
  }

  // Ports

  /** A 404 (no such port) is thrown as `OpenStackHttpError`, for the callers that expect it. */
  async getPort(portId: string): Promise<NeutronPort> {
    return (await this.api.read(portAnswer, `/v2.0/ports/${portId}`)).port;
  }

  /** The ports plugged into a device (a server, or a router with `owner`). */
  async portsOf(deviceId: string, owner?: string) {
    const path = `/v2.0/ports?device_id=${deviceId}${owner ? `&device_owner=${owner}` : ''}`;
    return (await this.api.read(portList, path)).ports;
  }

  async createPort(body: PortCreate): Promise<string> {
    const answer = await this.api.read(createdPort, '/v2.0/ports', {
      method: 'POST',
      body: { port: body },
    });
    return answer.port.id;
  }

  deletePort(portId: string): Promise<void> {
    return this.api.send(`/v2.0/ports/${portId}`, { method: 'DELETE' });
  }

  // Security groups

  async createSecurityGroup(name: string, description: string): Promise<string> {
    const answer = await this.api.read(createdGroup, '/v2.0/security-groups', {
      method: 'POST',
      body: { security_group: { name, description } },
    });
    return answer.security_group.id;
  }

  /** A rule letting in everything of one ethertype. */
  allowIngress(groupId: string, ethertype: 'IPv4' | 'IPv6'): Promise<void> {
    return this.api.send('/v2.0/security-group-rules', {
      method: 'POST',
      body: {
        security_group_rule: { security_group_id: groupId, direction: 'ingress', ethertype },
      },
    });
  }

  // Floating IPs

  async floatingIpsAt(address: string) {
    const path = `/v2.0/floatingips?floating_ip_address=${address}`;
    return (await this.api.read(floatingIpList, path)).floatingips;
  }

  async floatingIpsOf(portId: string) {
    const path = `/v2.0/floatingips?port_id=${portId}`;
    return (await this.api.read(floatingIpList, path)).floatingips;
  }

  createFloatingIp(networkId: string, address: string, portId: string): Promise<void> {
    return this.api.send('/v2.0/floatingips', {
      method: 'POST',
      body: {
        floatingip: {
          floating_network_id: networkId,
          floating_ip_address: address,
          port_id: portId,
        },
      },
    });
  }

  deleteFloatingIp(floatingIpId: string): Promise<void> {
    return this.api.send(`/v2.0/floatingips/${floatingIpId}`, { method: 'DELETE' });
  }
}
