import type { Duplex } from 'node:stream';
import {
  ProviderRejection,
  ProviderUnavailable,
  type Catalog,
  type CreateServerRequest,
  type NetworkSpec,
  type NetworkState,
  type PortRequest,
  type PortState,
  type ProviderDriver,
  type ProviderHealth,
  type ServerState,
  type TaskFault,
} from '../driver';
import { hostnameOf, seedFiles } from '../cloud-init';
import { configuredCatalog } from '../configured-catalog';
import { UsageSampler } from '../guest-usage';
import { cloudAllocationPools } from './allocation-pools';
import { DIAGNOSTICS_VERSION, guestStatsOf } from './diagnostics';
import { openNoVncStream } from './novnc-stream';
import type { OpenStackConfig, OpenStackProvider, OpenStackRegion } from './config';
import { OpenStackHttpError, toProviderError } from './http';
import { KeystoneSession } from './keystone';
import { novaFault, serverStateOf, type NovaServer } from './server-state';

interface Cloud {
  provider: OpenStackProvider;
  session: KeystoneSession;
  /** false once the cloud refused its diagnostics (a policy for administrators only). */
  diagnostics: boolean;
}

/** Every resource the driver makes carries the client token of the call that made it. */
const tokenTag = (clientToken: string) => `lp-${clientToken}`.slice(0, 60);
/** A port being unplugged (see detachPort). */
const DETACHING = 'lp-detaching';
/** And a product network's resources on each cloud, the network's own tag. */
const networkTag = (id: string) => `lp-net-${id}`.slice(0, 60);
/** The name and tag of the security group every port of the product is in. */
const OPEN_GROUP = 'lp-open';

const splitRef = (ref: string): [string, string] => {
  const at = ref.indexOf('/');
  if (at <= 0) throw new ProviderRejection(`Not an OpenStack reference: ${ref}`);
  return [ref.slice(0, at), ref.slice(at + 1)];
};

/**
 * OpenStack clouds through their REST APIs: Keystone v3 for the token and the endpoints, Nova for
 * servers, Neutron for networks, ports, routers and floating IPs, Glance for images. Each
 * configured cloud account is a provider of the catalogue; several may serve one region. The
 * driver keeps nothing of its own: what it made is found again in the cloud by its tags.
 *
 * References: a server or a port is `<provider>/<uuid>`; a product network is
 * `<region>/<id>`, made on every cloud that serves the region (a server's ports are on its cloud).
 */
export class OpenStackDriver implements ProviderDriver {
  readonly kind = 'openstack';
  private readonly clouds = new Map<string, Cloud>();
  private readonly usage = new UsageSampler();
  /** Each cloud's open security group (see openSecurityGroup), by provider key. */
  private readonly openGroups = new Map<string, Promise<string>>();

  constructor(
    private readonly config: OpenStackConfig,
    private readonly options: {
      /** The product's own page for a server's console (its gateway, through `openConsole`). */
      consoleUrl: (ref: string) => string;
    },
  ) {
    for (const provider of config.providers) {
      this.clouds.set(provider.key, {
        provider,
        session: new KeystoneSession(provider, config.requestTimeoutSeconds * 1000),
        diagnostics: true,
      });
    }
  }

  async catalog(): Promise<Catalog> {
    return configuredCatalog(this.config.providers, (region) => Object.keys(region.flavors));
  }

  async health(): Promise<ProviderHealth> {
    const started = performance.now();
    const failures: string[] = [];
    await Promise.all(
      [...this.clouds.values()].map(async (cloud) => {
        try {
          await cloud.session.signIn();
        } catch (error) {
          failures.push(`${cloud.provider.key}: ${(error as Error).message}`);
        }
      }),
    );
    const latencyMs = Math.round(performance.now() - started);
    return failures.length === 0
      ? { ok: true, latencyMs }
      : { ok: false, latencyMs, detail: failures.join('; ') };
  }

  // Servers

  async createServer(request: CreateServerRequest): Promise<{ ref: string }> {
    const cloud = this.cloud(request.providerKey);
    const region = this.regionOf(cloud, request.regionKey);
    const tag = tokenTag(request.clientToken);
    return this.guard('create the server', async () => {
      const found = await this.call(cloud, 'compute', `/servers?tags=${tag}`);
      const existing = (found.body as { servers: { id: string }[] }).servers[0];
      if (existing) return { ref: `${cloud.provider.key}/${existing.id}` };

      const image = region.images.find((i) => i.key === request.imageKey);
      if (!image) throw new ProviderRejection(`No image ${request.imageKey} in ${region.key}`);
      const flavor = region.flavors[request.sizeKey as keyof typeof region.flavors];
      if (!flavor) throw new ProviderRejection(`No flavor for ${request.sizeKey} in ${region.key}`);
      const [imageId, flavorId] = await Promise.all([
        this.imageId(cloud, image.glanceImage),
        this.flavorId(cloud, flavor),
      ]);
      const port = await this.ensurePort(cloud, request.regionKey, request.primaryPort, tag);
      const { userData } = seedFiles({
        instanceId: request.clientToken,
        hostname: hostnameOf(request.name),
        username: request.username,
        password: request.password,
        publicKey: request.publicKey,
      });
      let created;
      try {
        created = await this.call(cloud, 'compute', '/servers', {
          method: 'POST',
          body: {
            server: {
              name: request.name,
              imageRef: imageId,
              flavorRef: flavorId,
              networks: [{ port }],
              config_drive: true,
              user_data: Buffer.from(userData).toString('base64'),
              tags: [tag, `lp-region-${region.key}`],
            },
          },
        });
      } catch (error) {
        // A refusal (quota, flavor, image) leaves no port behind: it would hold the network.
        if (error instanceof OpenStackHttpError && error.status < 500) {
          await this.deletePortAndAddresses(cloud, port);
        }
        throw error;
      }
      const id = (created.body as { server: { id: string } }).server.id;
      if (request.publicIp) await this.ensureFloatingIp(cloud, region, port, request.publicIp);
      return { ref: `${cloud.provider.key}/${id}` };
    });
  }

  async getServer(ref: string): Promise<ServerState | null> {
    const [cloud, id] = this.cloudRef(ref);
    return this.guard('read the server', async () => {
      let server: NovaServer;
      try {
        server = (await this.call(cloud, 'compute', `/servers/${id}`)).body as NovaServer;
      } catch (error) {
        if (!(error instanceof OpenStackHttpError && error.status === 404)) throw error;
        this.usage.forget(ref);
        return null;
      }
      if (server.server.status === 'VERIFY_RESIZE') {
        // The product's resize has no second step: confirmed as soon as Nova asks. A read that
        // saw VERIFY_RESIZE just before an earlier confirmation ended is refused (409, the server
        // being stopped or active again): that confirmation stands, and the next read shows it.
        await this.action(cloud, id, { confirmResize: null }).catch((error: unknown) => {
          if (!(error instanceof OpenStackHttpError && error.status === 409)) throw error;
        });
      }
      const ports = await this.call(cloud, 'network', `/v2.0/ports?device_id=${id}`);
      const sizeKey = this.sizeKeyOf(cloud, server.server.flavor.original_name);
      const state = serverStateOf(
        ref,
        server,
        sizeKey,
        (ports.body as { ports: { id: string; mac_address: string }[] }).ports.map((p) => ({
          ref: `${cloud.provider.key}/${p.id}`,
          macAddress: p.mac_address,
        })),
      );
      // A task that failed leaves the server as it was (a resize without room, say): Nova says so
      // in its record of the server's last action.
      if (state.task === null && state.fault === null)
        state.fault = await this.lastFailure(cloud, id);
      if (state.powerState === 'running' && state.task === null && cloud.diagnostics)
        state.usage = await this.usage.read(ref, () => this.guestStats(cloud, id));
      else this.usage.forget(ref);
      return state;
    });
  }

  private async guestStats(cloud: Cloud, id: string) {
    try {
      const answer = await this.call(cloud, 'compute', `/servers/${id}/diagnostics`, {
        headers: { 'openstack-api-version': DIAGNOSTICS_VERSION },
        // The figures are a nicety: a compute host slow to answer does not hold up the state.
        timeoutMs: 5000,
      });
      return guestStatsOf(answer.body as Record<string, unknown>);
    } catch (error) {
      if (error instanceof OpenStackHttpError && error.status === 403) cloud.diagnostics = false;
      throw error;
    }
  }

  private async lastFailure(cloud: Cloud, id: string): Promise<TaskFault | null> {
    const actions = await this.call(cloud, 'compute', `/servers/${id}/os-instance-actions?limit=1`);
    const last = (
      actions.body as {
        instanceActions: { action: string; message: string | null; request_id: string }[];
      }
    ).instanceActions[0];
    if (!last || last.message !== 'Error') return null;
    const detail = await this.call(
      cloud,
      'compute',
      `/servers/${id}/os-instance-actions/${last.request_id}`,
    );
    const events = (
      detail.body as { instanceAction: { events?: { result: string; details?: string | null }[] } }
    ).instanceAction.events;
    const reason = events?.find((e) => e.result === 'Error' && e.details)?.details;
    return novaFault(
      `The cloud could not ${last.action.replace(/_/g, ' ')}${reason ? `: ${reason}` : ''}`,
    );
  }

  startServer(ref: string): Promise<void> {
    return this.serverAction(ref, 'start the server', { 'os-start': null }, ['ACTIVE']);
  }

  stopServer(ref: string): Promise<void> {
    return this.serverAction(ref, 'stop the server', { 'os-stop': null }, ['SHUTOFF']);
  }

  rebootServer(ref: string): Promise<void> {
    return this.serverAction(ref, 'reboot the server', { reboot: { type: 'SOFT' } }, []);
  }

  async resizeServer(ref: string, sizeKey: string): Promise<void> {
    const [cloud] = this.cloudRef(ref);
    const flavor = this.flavorNameFor(cloud, sizeKey);
    const flavorId = await this.guard('resize the server', () => this.flavorId(cloud, flavor));
    return this.serverAction(ref, 'resize the server', { resize: { flavorRef: flavorId } }, []);
  }

  async deleteServer(ref: string): Promise<void> {
    const [cloud, id] = this.cloudRef(ref);
    await this.guard('delete the server', async () => {
      const ports = await this.call(cloud, 'network', `/v2.0/ports?device_id=${id}`);
      try {
        await this.call(cloud, 'compute', `/servers/${id}`, { method: 'DELETE' });
      } catch (error) {
        if (!(error instanceof OpenStackHttpError && error.status === 404)) throw error;
      }
      // Ports the driver made go with their server (Nova keeps the ones it was given).
      for (const port of (ports.body as { ports: { id: string }[] }).ports) {
        await this.deletePortAndAddresses(cloud, port.id);
      }
    });
  }

  async consoleUrl(ref: string): Promise<string> {
    const [cloud, id] = this.cloudRef(ref);
    const server = await this.guard('open the console', async () => {
      const answer = await this.call(cloud, 'compute', `/servers/${id}`);
      return (answer.body as NovaServer).server;
    });
    if (server.status !== 'ACTIVE' || server['OS-EXT-STS:task_state']) {
      throw new ProviderRejection('The console is available only for a running server');
    }
    return this.options.consoleUrl(ref);
  }

  /**
   * The guest's screen through Nova's noVNC proxy, opened from here: the product serves the page
   * and carries the stream, so the viewer never needs to reach the cloud's proxy itself.
   */
  async openConsole(ref: string): Promise<Duplex> {
    const [cloud, id] = this.cloudRef(ref);
    const url = await this.guard('open the console', async () => {
      const answer = await this.call(cloud, 'compute', `/servers/${id}/remote-consoles`, {
        method: 'POST',
        body: { remote_console: { protocol: 'vnc', type: 'novnc' } },
      });
      return (answer.body as { remote_console: { url: string } }).remote_console.url;
    });
    return openNoVncStream(url, this.config.requestTimeoutSeconds * 1000);
  }

  // Networks

  async createNetwork(
    regionKey: string,
    spec: NetworkSpec,
    clientToken: string,
  ): Promise<{ ref: string }> {
    const clouds = this.cloudsOf(regionKey);
    await this.guard('create the network', async () => {
      for (const cloud of clouds) await this.ensureNetwork(cloud, regionKey, clientToken, spec);
    });
    return { ref: `${regionKey}/${clientToken}` };
  }

  async updateNetwork(ref: string, spec: NetworkSpec): Promise<void> {
    const [regionKey, id] = splitRef(ref);
    await this.guard('update the network', async () => {
      for (const cloud of this.cloudsOf(regionKey)) {
        const subnet = await this.subnetOf(cloud, id);
        if (!subnet) continue;
        await this.call(cloud, 'network', `/v2.0/subnets/${subnet.id}`, {
          method: 'PUT',
          body: { subnet: subnetFields(spec, false) },
        });
        await this.ensureRouter(cloud, this.regionOf(cloud, regionKey), id, subnet.id, spec);
      }
    });
  }

  async deleteNetwork(ref: string): Promise<void> {
    const [regionKey, id] = splitRef(ref);
    await this.guard('delete the network', async () => {
      for (const cloud of this.cloudsOf(regionKey)) {
        const router = await this.routerOf(cloud, id);
        if (router) await this.deleteRouter(cloud, router.id);
        const network = await this.networkOf(cloud, id);
        if (network)
          await this.ignoreMissing(
            this.call(cloud, 'network', `/v2.0/networks/${network.id}`, { method: 'DELETE' }),
          );
      }
    });
  }

  async getNetwork(ref: string): Promise<NetworkState | null> {
    const [regionKey, id] = splitRef(ref);
    return this.guard('read the network', async () => {
      const networks = await Promise.all(
        this.cloudsOf(regionKey).map((c) => this.networkOf(c, id)),
      );
      if (networks.every((n) => !n)) return null;
      const down = networks.find((n) => n && n.status !== 'ACTIVE');
      return {
        ref,
        status: networks.some((n) => !n) || down?.status === 'BUILD' ? 'building' : 'active',
        fault: down?.status === 'ERROR' ? 'The cloud reports the network in error' : null,
      };
    });
  }

  // Ports and public addresses

  async attachPort(
    serverRef: string,
    port: PortRequest,
    clientToken: string,
  ): Promise<{ ref: string }> {
    const [cloud, serverId] = this.cloudRef(serverRef);
    return this.guard('plug the interface', async () => {
      const server = (await this.call(cloud, 'compute', `/servers/${serverId}`)).body as NovaServer;
      const regionKey = this.regionKeyOfServer(cloud, server);
      const portId = await this.ensurePort(cloud, regionKey, port, tokenTag(clientToken));
      const attached = await this.call(cloud, 'network', `/v2.0/ports/${portId}`);
      if ((attached.body as { port: { device_id: string } }).port.device_id !== serverId) {
        await this.call(cloud, 'compute', `/servers/${serverId}/os-interface`, {
          method: 'POST',
          body: { interfaceAttachment: { port_id: portId } },
          // Nova answers once the compute host has plugged it, waiting on it up to its own RPC
          // timeout (60 s by default): cut short, the call would fail while the plug goes on.
          timeoutMs: Math.max(this.config.requestTimeoutSeconds * 1000, 90_000),
        });
      }
      return { ref: `${cloud.provider.key}/${portId}` };
    });
  }

  /**
   * Nova unplugs in the background: the port is marked, and deleted when it is read once Nova has
   * let go of it (deleting it earlier fails whatever Nova does next to the server).
   */
  async detachPort(ref: string): Promise<void> {
    const [cloud, portId] = this.cloudRef(ref);
    await this.guard('unplug the interface', async () => {
      const port = await this.portOf(cloud, portId);
      if (!port) return;
      await this.call(cloud, 'network', `/v2.0/ports/${portId}/tags/${DETACHING}`, {
        method: 'PUT',
      });
      if (port.device_id) {
        await this.ignoreMissing(
          this.call(cloud, 'compute', `/servers/${port.device_id}/os-interface/${portId}`, {
            method: 'DELETE',
          }),
        );
      } else {
        await this.deletePortAndAddresses(cloud, portId);
      }
    });
  }

  async getPort(ref: string): Promise<PortState | null> {
    const [cloud, portId] = this.cloudRef(ref);
    return this.guard('read the interface', async () => {
      const port = await this.portOf(cloud, portId);
      if (!port) return null;
      const detaching = port.tags.includes(DETACHING);
      if (detaching && !port.device_id) {
        await this.deletePortAndAddresses(cloud, portId);
        return null;
      }
      const fips = await this.call(cloud, 'network', `/v2.0/floatingips?port_id=${portId}`);
      const fip = (fips.body as { floatingips: { floating_ip_address: string; status: string }[] })
        .floatingips[0];
      return {
        ref,
        serverRef: `${cloud.provider.key}/${port.device_id}`,
        status: detaching ? 'detaching' : port.device_id ? 'active' : 'attaching',
        busy: false,
        publicIp: fip?.floating_ip_address ?? null,
        fault: null,
      };
    });
  }

  async allocatePublicIp(portRef: string, address: string): Promise<void> {
    const [cloud, portId] = this.cloudRef(portRef);
    await this.guard('allocate the public IP', async () => {
      const port = await this.portOf(cloud, portId);
      if (!port) throw new ProviderRejection('The interface is gone');
      const network = (await this.call(cloud, 'network', `/v2.0/networks/${port.network_id}`))
        .body as { network: { tags: string[] } };
      const regionKey = this.regionKeyOfTags(cloud, network.network.tags);
      await this.ensureFloatingIp(cloud, this.regionOf(cloud, regionKey), portId, address);
    });
  }

  async releasePublicIp(portRef: string): Promise<void> {
    const [cloud, portId] = this.cloudRef(portRef);
    await this.guard('release the public IP', () => this.releaseFloatingIps(cloud, portId));
  }

  // The cloud's resources

  private cloud(providerKey: string): Cloud {
    const cloud = this.clouds.get(providerKey);
    if (!cloud) throw new ProviderRejection(`No OpenStack provider ${providerKey}`);
    return cloud;
  }

  private cloudRef(ref: string): [Cloud, string] {
    const [key, id] = splitRef(ref);
    return [this.cloud(key), id];
  }

  private cloudsOf(regionKey: string): Cloud[] {
    const clouds = [...this.clouds.values()].filter((c) =>
      c.provider.regions.some((r) => r.key === regionKey),
    );
    if (clouds.length === 0) throw new ProviderRejection(`No OpenStack cloud serves ${regionKey}`);
    return clouds;
  }

  private regionOf(cloud: Cloud, regionKey: string): OpenStackRegion {
    const region = cloud.provider.regions.find((r) => r.key === regionKey);
    if (!region) throw new ProviderRejection(`${cloud.provider.name} does not serve ${regionKey}`);
    return region;
  }

  private regionKeyOfServer(cloud: Cloud, server: NovaServer): string {
    return this.regionKeyOfTags(cloud, server.server.tags ?? []);
  }

  private regionKeyOfTags(cloud: Cloud, tags: string[]): string {
    const tagged = tags.find((t) => t.startsWith('lp-region-'));
    return tagged ? tagged.slice('lp-region-'.length) : cloud.provider.regions[0]!.key;
  }

  private sizeKeyOf(cloud: Cloud, flavorName: string): string {
    for (const region of cloud.provider.regions) {
      for (const [size, flavor] of Object.entries(region.flavors)) {
        if (flavor === flavorName) return size;
      }
    }
    return flavorName;
  }

  private flavorNameFor(cloud: Cloud, sizeKey: string): string {
    for (const region of cloud.provider.regions) {
      const flavor = region.flavors[sizeKey as keyof typeof region.flavors];
      if (flavor) return flavor;
    }
    throw new ProviderRejection(`${cloud.provider.name} has no flavor for ${sizeKey}`);
  }

  private call(cloud: Cloud, ...args: Parameters<KeystoneSession['call']>) {
    return cloud.session.call(...args);
  }

  private async action(cloud: Cloud, id: string, body: unknown) {
    await this.call(cloud, 'compute', `/servers/${id}/action`, { method: 'POST', body });
  }

  /** A server action, done once: a server already where the action leads is left as it is. */
  private async serverAction(ref: string, what: string, body: unknown, doneWhen: string[]) {
    const [cloud, id] = this.cloudRef(ref);
    await this.guard(what, async () => {
      const server = (await this.call(cloud, 'compute', `/servers/${id}`)).body as NovaServer;
      if (doneWhen.includes(server.server.status)) return;
      await this.action(cloud, id, body);
    });
  }

  private async imageId(cloud: Cloud, nameOrId: string): Promise<string> {
    const byName = await this.call(
      cloud,
      'image',
      `/v2/images?name=${encodeURIComponent(nameOrId)}`,
    );
    const image = (byName.body as { images: { id: string }[] }).images[0];
    if (image) return image.id;
    try {
      await this.call(cloud, 'image', `/v2/images/${encodeURIComponent(nameOrId)}`);
      return nameOrId;
    } catch (error) {
      if (error instanceof OpenStackHttpError && error.status === 404) {
        throw new ProviderRejection(`The cloud has no image ${nameOrId}`);
      }
      throw error;
    }
  }

  private async flavorId(cloud: Cloud, nameOrId: string): Promise<string> {
    const answer = await this.call(cloud, 'compute', '/flavors');
    const flavor = (answer.body as { flavors: { id: string; name: string }[] }).flavors.find(
      (f) => f.name === nameOrId || f.id === nameOrId,
    );
    if (!flavor) throw new ProviderRejection(`The cloud has no flavor ${nameOrId}`);
    return flavor.id;
  }

  /** The account's own resource with the tag (an administrator's list holds every project's). */
  private async tagged<T>(cloud: Cloud, kind: string, tag: string): Promise<T | undefined> {
    const project = await cloud.session.projectId();
    const answer = await this.call(
      cloud,
      'network',
      `/v2.0/${kind}?tags=${tag}&project_id=${project}`,
    );
    return (answer.body as Record<string, T[]>)[kind]![0];
  }

  private networkOf(cloud: Cloud, id: string) {
    return this.tagged<{ id: string; status: string }>(cloud, 'networks', networkTag(id));
  }

  private subnetOf(cloud: Cloud, id: string) {
    return this.tagged<{ id: string }>(cloud, 'subnets', networkTag(id));
  }

  private routerOf(cloud: Cloud, id: string) {
    return this.tagged<{ id: string }>(cloud, 'routers', networkTag(id));
  }

  private async portOf(cloud: Cloud, portId: string) {
    try {
      const answer = await this.call(cloud, 'network', `/v2.0/ports/${portId}`);
      return (
        answer.body as {
          port: { id: string; device_id: string; network_id: string; tags: string[] };
        }
      ).port;
    } catch (error) {
      if (error instanceof OpenStackHttpError && error.status === 404) return null;
      throw error;
    }
  }

  private async addTags(cloud: Cloud, kind: string, id: string, tags: string[]) {
    await this.call(cloud, 'network', `/v2.0/${kind}/${id}/tags`, {
      method: 'PUT',
      body: { tags },
    });
  }

  private async externalNetworkId(cloud: Cloud, region: OpenStackRegion): Promise<string> {
    const answer = await this.call(
      cloud,
      'network',
      `/v2.0/networks?router:external=true&name=${encodeURIComponent(region.externalNetwork)}`,
    );
    const byName = (answer.body as { networks: { id: string }[] }).networks[0];
    return byName?.id ?? region.externalNetwork;
  }

  private async ensureNetwork(cloud: Cloud, regionKey: string, id: string, spec: NetworkSpec) {
    const tag = networkTag(id);
    const tags = [tag, `lp-region-${regionKey}`];
    const layer2 = !spec.dhcp && !spec.gatewayIp;
    let network = await this.networkOf(cloud, id);
    if (!network) {
      const created = await this.call(cloud, 'network', '/v2.0/networks', {
        method: 'POST',
        // The ports' default. Nova refuses to plug a port into a network with port security and
        // no subnet, whatever the port's own setting: on a layer-2 network each port sets its own.
        body: { network: { name: spec.name, port_security_enabled: !layer2 } },
      });
      network = (created.body as { network: { id: string; status: string } }).network;
      await this.addTags(cloud, 'networks', network.id, tags);
    }
    // A network without address management (no DHCP, no gateway) is layer 2 only: no subnet, so
    // that its ports carry no address (Nova refuses a port without one on a network with subnets).
    if (layer2) return;
    let subnet = await this.subnetOf(cloud, id);
    if (!subnet) {
      const created = await this.call(cloud, 'network', '/v2.0/subnets', {
        method: 'POST',
        body: { subnet: { network_id: network.id, ip_version: 4, ...subnetFields(spec, true) } },
      });
      subnet = (created.body as { subnet: { id: string } }).subnet;
      await this.addTags(cloud, 'subnets', subnet.id, tags);
    }
    await this.ensureRouter(cloud, this.regionOf(cloud, regionKey), id, subnet.id, spec);
  }

  /**
   * A network with a gateway reaches the external network through a router: its servers' public
   * IPs (floating IPs) need one. Outbound traffic leaves from the SNAT address when there is one.
   */
  private async ensureRouter(
    cloud: Cloud,
    region: OpenStackRegion,
    id: string,
    subnetId: string,
    spec: NetworkSpec,
  ) {
    const router = await this.routerOf(cloud, id);
    if (!spec.gatewayIp) {
      if (router) await this.deleteRouter(cloud, router.id);
      return;
    }
    const gateway = {
      network_id: await this.externalNetworkId(cloud, region),
      enable_snat: spec.snatIp !== null,
      ...(spec.snatIp && { external_fixed_ips: [{ ip_address: spec.snatIp }] }),
    };
    if (router) {
      await this.call(cloud, 'network', `/v2.0/routers/${router.id}`, {
        method: 'PUT',
        body: { router: { external_gateway_info: gateway } },
      });
      return;
    }
    const created = await this.call(cloud, 'network', '/v2.0/routers', {
      method: 'POST',
      body: { router: { name: `${spec.name}-router`, external_gateway_info: gateway } },
    });
    const routerId = (created.body as { router: { id: string } }).router.id;
    await this.addTags(cloud, 'routers', routerId, [networkTag(id), `lp-region-${region.key}`]);
    await this.call(cloud, 'network', `/v2.0/routers/${routerId}/add_router_interface`, {
      method: 'PUT',
      body: { subnet_id: subnetId },
    });
  }

  private async deleteRouter(cloud: Cloud, routerId: string) {
    const ports = await this.call(
      cloud,
      'network',
      `/v2.0/ports?device_id=${routerId}&device_owner=network:router_interface`,
    );
    for (const port of (ports.body as { ports: { id: string }[] }).ports) {
      await this.ignoreMissing(
        this.call(cloud, 'network', `/v2.0/routers/${routerId}/remove_router_interface`, {
          method: 'PUT',
          body: { port_id: port.id },
        }),
      );
    }
    await this.ignoreMissing(
      this.call(cloud, 'network', `/v2.0/routers/${routerId}`, { method: 'DELETE' }),
    );
  }

  /** The port the product asked for (its address and MAC), on the network's copy in this cloud. */
  private async ensurePort(
    cloud: Cloud,
    regionKey: string,
    request: PortRequest,
    tag: string,
  ): Promise<string> {
    const existing = await this.tagged<{ id: string }>(cloud, 'ports', tag);
    if (existing) return existing.id;
    const [, networkId] = splitRef(request.networkRef);
    const network = await this.networkOf(cloud, networkId);
    if (!network) throw new ProviderRejection(`The network is not in ${cloud.provider.name}`);
    const subnet = await this.subnetOf(cloud, networkId);
    const bound = request.fixedIp !== null && subnet !== undefined;
    const created = await this.call(cloud, 'network', '/v2.0/ports', {
      method: 'POST',
      body: {
        port: {
          network_id: network.id,
          mac_address: request.macAddress,
          ...(bound
            ? { fixed_ips: [{ subnet_id: subnet.id, ip_address: request.fixedIp }] }
            : { fixed_ips: [] }),
          // Anti-spoofing: the port sends from its MAC and address only, and no DHCP answers.
          // A port without an address (a layer-2 network, whose addresses are the company's own
          // choice) is bound to its MAC alone.
          port_security_enabled: true,
          security_groups: [await this.openSecurityGroup(cloud)],
          ...(!bound && {
            allowed_address_pairs: [{ ip_address: '0.0.0.0/0' }, { ip_address: '::/0' }],
          }),
        },
      },
    });
    const portId = (created.body as { port: { id: string } }).port.id;
    await this.addTags(cloud, 'ports', portId, [tag, `lp-region-${regionKey}`]);
    return portId;
  }

  /**
   * The account's security group that lets everything through: the product has no firewall of
   * its own, and port security (anti-spoofing) needs a group on each port. Made once per cloud,
   * tagged when complete (a group found by its tag has its rules).
   */
  private openSecurityGroup(cloud: Cloud): Promise<string> {
    let group = this.openGroups.get(cloud.provider.key);
    if (!group) {
      group = this.ensureOpenSecurityGroup(cloud);
      group.catch(() => this.openGroups.delete(cloud.provider.key));
      this.openGroups.set(cloud.provider.key, group);
    }
    return group;
  }

  private async ensureOpenSecurityGroup(cloud: Cloud): Promise<string> {
    const project = await cloud.session.projectId();
    const found = await this.call(
      cloud,
      'network',
      `/v2.0/security-groups?tags=${OPEN_GROUP}&project_id=${project}`,
    );
    const existing = (found.body as { security_groups: { id: string }[] }).security_groups[0];
    if (existing) return existing.id;
    const created = await this.call(cloud, 'network', '/v2.0/security-groups', {
      method: 'POST',
      body: {
        security_group: {
          name: OPEN_GROUP,
          description: 'Launchpad: all traffic (anti-spoofing comes from port security)',
        },
      },
    });
    const id = (created.body as { security_group: { id: string } }).security_group.id;
    // A new group lets everything out already.
    for (const ethertype of ['IPv4', 'IPv6']) {
      await this.call(cloud, 'network', '/v2.0/security-group-rules', {
        method: 'POST',
        body: { security_group_rule: { security_group_id: id, direction: 'ingress', ethertype } },
      });
    }
    await this.addTags(cloud, 'security-groups', id, [OPEN_GROUP]);
    return id;
  }

  private async ensureFloatingIp(
    cloud: Cloud,
    region: OpenStackRegion,
    portId: string,
    address: string,
  ) {
    const answer = await this.call(
      cloud,
      'network',
      `/v2.0/floatingips?floating_ip_address=${address}`,
    );
    const existing = (answer.body as { floatingips: { id: string; port_id: string | null }[] })
      .floatingips[0];
    if (existing?.port_id === portId) return;
    if (existing) throw new ProviderRejection(`${address} is in use in ${cloud.provider.name}`);
    await this.call(cloud, 'network', '/v2.0/floatingips', {
      method: 'POST',
      body: {
        floatingip: {
          floating_network_id: await this.externalNetworkId(cloud, region),
          floating_ip_address: address,
          port_id: portId,
        },
      },
    });
  }

  private async releaseFloatingIps(cloud: Cloud, portId: string) {
    const answer = await this.call(cloud, 'network', `/v2.0/floatingips?port_id=${portId}`);
    for (const fip of (answer.body as { floatingips: { id: string }[] }).floatingips) {
      await this.ignoreMissing(
        this.call(cloud, 'network', `/v2.0/floatingips/${fip.id}`, { method: 'DELETE' }),
      );
    }
  }

  private async deletePortAndAddresses(cloud: Cloud, portId: string) {
    await this.releaseFloatingIps(cloud, portId);
    await this.ignoreMissing(
      this.call(cloud, 'network', `/v2.0/ports/${portId}`, { method: 'DELETE' }),
    );
  }

  private async ignoreMissing(call: Promise<unknown>) {
    try {
      await call;
    } catch (error) {
      if (!(error instanceof OpenStackHttpError && error.status === 404)) throw error;
    }
  }

  /** Runs a step against the cloud: what fails comes out as a refusal or as unavailability. */
  private async guard<T>(what: string, step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } catch (error) {
      if (error instanceof ProviderRejection) throw error;
      if (error instanceof ProviderUnavailable) {
        throw new ProviderUnavailable(`Could not ${what}: ${error.message}`);
      }
      throw toProviderError(error, `Could not ${what}`);
    }
  }
}

/** A subnet's fields from the product's network (CIDR only when created). */
function subnetFields(spec: NetworkSpec, withCidr: boolean) {
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
