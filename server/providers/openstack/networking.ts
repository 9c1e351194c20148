import {
  ProviderRejection,
  type NetworkSpec,
  type NetworkState,
  type PortRequest,
  type PortState,
  type ProviderNetworking,
} from '../driver';
import { guard, regionKeyOfTags, regionOf, splitRef, tokenTag, type Clouds } from './clouds';
import { ignoreMissing, unlessMissing } from './http';
import { deleteNetwork, ensureNetwork, networkOf, updateNetwork } from './networks';
import { deletePortAndAddresses, ensureFloatingIp, ensurePort, releaseFloatingIps } from './ports';

/** A port being unplugged (see detachPort). */
const DETACHING = 'lp-detaching';

/**
 * Networks, ports and floating IPs through Neutron (and Nova, which plugs ports into servers). A
 * product network `<region>/<id>` is made on every cloud that serves the region; a port is
 * `<provider>/<uuid>`, on its server's cloud.
 */
export class OpenStackNetworking implements ProviderNetworking {
  constructor(
    private readonly clouds: Clouds,
    /** How long Nova may take to plug a port (at least its own RPC timeout, below). */
    private readonly attachTimeoutMs: number,
  ) {}

  async createNetwork(
    regionKey: string,
    spec: NetworkSpec,
    clientToken: string,
  ): Promise<{ ref: string }> {
    const clouds = this.clouds.serving(regionKey);
    await guard('create the network', async () => {
      for (const cloud of clouds) await ensureNetwork(cloud, regionKey, clientToken, spec);
    });
    return { ref: `${regionKey}/${clientToken}` };
  }

  async updateNetwork(ref: string, spec: NetworkSpec): Promise<void> {
    const [regionKey, id] = splitRef(ref);
    await guard('update the network', async () => {
      for (const cloud of this.clouds.serving(regionKey)) {
        await updateNetwork(cloud, regionKey, id, spec);
      }
    });
  }

  async deleteNetwork(ref: string): Promise<void> {
    const [regionKey, id] = splitRef(ref);
    await guard('delete the network', async () => {
      for (const cloud of this.clouds.serving(regionKey)) await deleteNetwork(cloud, id);
    });
  }

  async getNetwork(ref: string): Promise<NetworkState | null> {
    const [regionKey, id] = splitRef(ref);
    return guard('read the network', async () => {
      const networks = await Promise.all(
        this.clouds.serving(regionKey).map((c) => networkOf(c, id)),
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

  async attachPort(
    serverRef: string,
    port: PortRequest,
    clientToken: string,
  ): Promise<{ ref: string }> {
    const [cloud, serverId] = this.clouds.ofRef(serverRef);
    return guard('plug the interface', async () => {
      const server = await cloud.compute.getServer(serverId);
      const regionKey = regionKeyOfTags(cloud, server.server.tags ?? []);
      const portId = await ensurePort(cloud, regionKey, port, tokenTag(clientToken));
      const attached = await cloud.network.getPort(portId);
      if (attached.device_id !== serverId) {
        await cloud.compute.attachInterface(serverId, portId, this.attachTimeoutMs);
      }
      return { ref: `${cloud.provider.key}/${portId}` };
    });
  }

  /**
   * Nova unplugs in the background: the port is marked, and deleted when it is read once Nova has
   * let go of it (deleting it earlier fails whatever Nova does next to the server).
   */
  async detachPort(ref: string): Promise<void> {
    const [cloud, portId] = this.clouds.ofRef(ref);
    await guard('unplug the interface', async () => {
      const port = await unlessMissing(cloud.network.getPort(portId));
      if (!port) return;
      await cloud.network.addTag('ports', portId, DETACHING);
      if (port.device_id) {
        await ignoreMissing(cloud.compute.detachInterface(port.device_id, portId));
      } else {
        await deletePortAndAddresses(cloud, portId);
      }
    });
  }

  async getPort(ref: string): Promise<PortState | null> {
    const [cloud, portId] = this.clouds.ofRef(ref);
    return guard('read the interface', async () => {
      const port = await unlessMissing(cloud.network.getPort(portId));
      if (!port) return null;
      const detaching = port.tags.includes(DETACHING);
      if (detaching && !port.device_id) {
        await deletePortAndAddresses(cloud, portId);
        return null;
      }
      const [fip] = await cloud.network.floatingIpsOf(portId);
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
    const [cloud, portId] = this.clouds.ofRef(portRef);
    await guard('allocate the public IP', async () => {
      const port = await unlessMissing(cloud.network.getPort(portId));
      if (!port) throw new ProviderRejection('The interface is gone');
      const regionKey = regionKeyOfTags(cloud, await cloud.network.networkTagsOf(port.network_id));
      await ensureFloatingIp(cloud, regionOf(cloud, regionKey), portId, address);
    });
  }

  async releasePublicIp(portRef: string): Promise<void> {
    const [cloud, portId] = this.clouds.ofRef(portRef);
    await guard('release the public IP', () => releaseFloatingIps(cloud, portId));
  }
}
