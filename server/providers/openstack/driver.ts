import type { Duplex } from 'node:stream';
import {
  ProviderRejection,
  type Catalog,
  type CreateServerRequest,
  type ProviderDriver,
  type ProviderHealth,
  type RebuildServerRequest,
  type ServerState,
  type ServerTask,
  type SnapshotState,
  type TaskFault,
} from '../driver';
import { hostnameOf, seedFiles } from '../cloud-init';
import { configuredCatalog } from '../configured-catalog';
import { UsageSampler } from '../guest-usage';
import {
  Clouds,
  guard,
  regionKeyOfTags,
  regionOf,
  regionTag,
  tokenTag,
  type Cloud,
} from './clouds';
import type { OpenStackConfig } from './config';
import { guestStatsOf } from './diagnostics';
import { ignoreMissing, isHttpStatus, OpenStackHttpError, unlessMissing } from './http';
import { OpenStackNetworking } from './networking';
import { openNoVncStream } from './novnc-stream';
import { deletePortAndAddresses, ensureFloatingIp, ensurePort } from './ports';
import { rebuildFromImage } from './rebuild';
import * as snapshots from './snapshots';
import { novaFault, serverStateOf, taskOf } from './server-state';

/**
 * OpenStack clouds through their REST APIs, one typed client per service (`keystone.ts` for the
 * token and the endpoints, `compute.ts` for Nova, `network.ts` for Neutron, `image.ts` for
 * Glance), each reading the answers it gets; this class and `networking.ts` put their calls
 * together. Each configured cloud account is a provider of the catalogue; several may serve one
 * region. The driver keeps nothing of its own: what it made is found again in the cloud by its tags.
 *
 * References: a server or a port is `<provider>/<uuid>`; a product network is
 * `<region>/<id>`, made on every cloud that serves the region (a server's ports are on its cloud).
 */
export class OpenStackDriver implements ProviderDriver {
  readonly kind = 'openstack';
  readonly networking: OpenStackNetworking;
  private readonly clouds: Clouds;
  private readonly usage = new UsageSampler();

  constructor(
    private readonly config: OpenStackConfig,
    private readonly options: {
      /** The product's own page for a server's console (its gateway, through `openConsole`). */
      consoleUrl: (ref: string) => string;
    },
  ) {
    this.clouds = new Clouds(config);
    // Nova answers a port's plug once the compute host has done it, waiting on it up to its own
    // RPC timeout (60 s by default): cut short, the call would fail while the plug goes on.
    const attachTimeoutMs = Math.max(config.requestTimeoutSeconds * 1000, 90_000);
    this.networking = new OpenStackNetworking(this.clouds, attachTimeoutMs);
  }

  async catalog(): Promise<Catalog> {
    return configuredCatalog(this.config.providers, (region) => Object.keys(region.flavors));
  }

  async health(): Promise<ProviderHealth> {
    const started = performance.now();
    const failures: string[] = [];
    await Promise.all(
      this.clouds.all().map(async (cloud) => {
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

  async createServer(request: CreateServerRequest): Promise<{ ref: string }> {
    const cloud = this.clouds.get(request.providerKey);
    const region = regionOf(cloud, request.regionKey);
    const tag = tokenTag(request.clientToken);
    const refOf = (id: string) => ({ ref: `${cloud.provider.key}/${id}` });
    return guard('create the server', async () => {
      const existing = await cloud.compute.serverTagged(tag);
      if (existing) return refOf(existing);

      const image = region.images.find((i) => i.key === request.imageKey);
      if (!image) throw new ProviderRejection(`No image ${request.imageKey} in ${region.key}`);
      const flavor = region.flavors[request.sizeKey as keyof typeof region.flavors];
      if (!flavor) throw new ProviderRejection(`No flavor for ${request.sizeKey} in ${region.key}`);
      const [imageId, flavorId] = await Promise.all([
        cloud.image.imageId(image.glanceImage),
        cloud.compute.flavorId(flavor),
      ]);
      const port = await ensurePort(cloud, request.regionKey, request.primaryPort, tag);
      const { userData } = seedFiles({
        instanceId: request.clientToken,
        hostname: hostnameOf(request.name),
        username: request.username,
        password: request.password,
        authorizedKeys: request.authorizedKeys,
      });
      let id;
      try {
        id = await cloud.compute.createServer({
          name: request.name,
          imageRef: imageId,
          flavorRef: flavorId,
          networks: [{ port }],
          config_drive: true,
          user_data: Buffer.from(userData).toString('base64'),
          tags: [tag, regionTag(region.key)],
        });
      } catch (error) {
        // A refusal (quota, flavor, image) leaves no port behind: it would hold the network.
        if (error instanceof OpenStackHttpError && error.status < 500) {
          await deletePortAndAddresses(cloud, port);
        }
        throw error;
      }
      if (request.publicIp) await ensureFloatingIp(cloud, region, port, request.publicIp);
      return refOf(id);
    });
  }

  async getServer(ref: string): Promise<ServerState | null> {
    const [cloud, id] = this.clouds.ofRef(ref);
    return guard('read the server', async () => {
      const server = await unlessMissing(cloud.compute.getServer(id));
      if (!server) {
        this.usage.forget(ref);
        return null;
      }
      if (server.server.status === 'VERIFY_RESIZE') {
        // The product's resize has no second step: confirmed as soon as Nova asks. A read that
        // saw VERIFY_RESIZE while an earlier confirmation is under way or just ended is refused:
        // 400 (Nova finds no resize left to confirm) or 409 (the server stopped or active again).
        // That confirmation stands, and the next read shows it.
        await cloud.compute.action(id, { confirmResize: null }).catch((error: unknown) => {
          if (!isHttpStatus(error, 409) && !isHttpStatus(error, 400)) throw error;
        });
      }
      const ports = await cloud.network.portsOf(id);
      const state = serverStateOf(
        ref,
        server,
        sizeKeyOf(cloud, server.server.flavor.original_name),
        ports.map((p) => ({ ref: `${cloud.provider.key}/${p.id}`, macAddress: p.mac_address })),
      );
      // A task that failed leaves the server as it was (a resize without room, say): Nova says so
      // in its record of the server's last action.
      if (state.task === null && state.fault === null) state.fault = await lastFailure(cloud, id);
      if (state.powerState === 'running' && state.task === null && cloud.diagnostics)
        state.usage = await this.usage.read(ref, () => guestStats(cloud, id));
      else this.usage.forget(ref);
      return state;
    });
  }

  startServer(ref: string): Promise<void> {
    const done = { status: 'ACTIVE', task: 'powering-on' } as const;
    return this.serverAction(ref, 'start the server', { 'os-start': null }, done);
  }

  stopServer(ref: string): Promise<void> {
    const done = { status: 'SHUTOFF', task: 'powering-off' } as const;
    return this.serverAction(ref, 'stop the server', { 'os-stop': null }, done);
  }

  rebootServer(ref: string): Promise<void> {
    const body = { reboot: { type: 'SOFT' } };
    return this.serverAction(ref, 'reboot the server', body, { task: 'rebooting' });
  }

  async resizeServer(ref: string, sizeKey: string): Promise<void> {
    const [cloud] = this.clouds.ofRef(ref);
    const flavor = flavorNameFor(cloud, sizeKey);
    const flavorId = await guard('resize the server', () => cloud.compute.flavorId(flavor));
    const body = { resize: { flavorRef: flavorId } };
    return this.serverAction(ref, 'resize the server', body, { task: 'resizing' });
  }

  /** Nova's rebuild from the image, with a config drive made afresh for the new credentials. */
  async rebuildServer(ref: string, request: RebuildServerRequest): Promise<void> {
    const [cloud, id] = this.clouds.ofRef(ref);
    await guard('rebuild the server', async () => {
      const { server } = await cloud.compute.getServer(id);
      const region = regionOf(cloud, regionKeyOfTags(cloud, server.tags ?? []));
      const image = region.images.find((i) => i.key === request.imageKey);
      if (!image) throw new ProviderRejection(`No image ${request.imageKey} in ${region.key}`);
      const imageId = await cloud.image.imageId(image.glanceImage);
      const { userData } = seedFiles({
        instanceId: id,
        hostname: hostnameOf(server.name ?? id),
        username: request.username,
        password: request.password,
        authorizedKeys: request.authorizedKeys,
      });
      await rebuildFromImage(cloud, id, { imageId, clientToken: request.clientToken, userData });
    });
  }

  async deleteServer(ref: string): Promise<void> {
    const [cloud, id] = this.clouds.ofRef(ref);
    await guard('delete the server', async () => {
      const ports = await cloud.network.portsOf(id);
      await ignoreMissing(cloud.compute.deleteServer(id));
      // Ports the driver made go with their server (Nova keeps the ones it was given).
      for (const port of ports) await deletePortAndAddresses(cloud, port.id);
    });
  }

  /** Nova's image of the server, in Glance: `<provider>/<image id>`. */
  async createSnapshot(serverRef: string, name: string, clientToken: string) {
    const [cloud, id] = this.clouds.ofRef(serverRef);
    const imageId = await guard('snapshot the server', () =>
      snapshots.createSnapshot(cloud, id, name, clientToken),
    );
    return { ref: `${cloud.provider.key}/${imageId}` };
  }

  getSnapshot(ref: string): Promise<SnapshotState | null> {
    const [cloud, imageId] = this.clouds.ofRef(ref);
    return guard('read the snapshot', () => snapshots.getSnapshot(cloud, ref, imageId));
  }

  async restoreSnapshot(serverRef: string, snapshotRef: string, clientToken: string) {
    const [cloud, id] = this.clouds.ofRef(serverRef);
    const [, imageId] = this.clouds.ofRef(snapshotRef);
    await guard('restore the server', () =>
      snapshots.restoreSnapshot(cloud, id, imageId, clientToken),
    );
  }

  async deleteSnapshot(ref: string): Promise<void> {
    const [cloud, imageId] = this.clouds.ofRef(ref);
    await guard('delete the snapshot', () => snapshots.deleteSnapshot(cloud, imageId));
  }

  async consoleUrl(ref: string): Promise<string> {
    const [cloud, id] = this.clouds.ofRef(ref);
    const { server } = await guard('open the console', () => cloud.compute.getServer(id));
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
    const [cloud, id] = this.clouds.ofRef(ref);
    const url = await guard('open the console', () => cloud.compute.remoteConsoleUrl(id));
    return openNoVncStream(url, this.config.requestTimeoutSeconds * 1000);
  }

  /**
   * A server action, done once: a server already where the action leads, or on its way there, is
   * left as it is. Nova refuses an action while the server has a task (409), so the same call
   * again while Nova is at it (a retry after an answer lost) would be refused.
   */
  private async serverAction(
    ref: string,
    what: string,
    body: Record<string, unknown>,
    done: { status?: string; task: ServerTask },
  ) {
    const [cloud, id] = this.clouds.ofRef(ref);
    await guard(what, async () => {
      const { server } = await cloud.compute.getServer(id);
      const task = taskOf(server.status, server['OS-EXT-STS:task_state']);
      if (server.status === done.status || task === done.task) return;
      await cloud.compute.action(id, body);
    });
  }
}

async function guestStats(cloud: Cloud, id: string) {
  try {
    return guestStatsOf(await cloud.compute.diagnostics(id));
  } catch (error) {
    if (isHttpStatus(error, 403)) cloud.diagnostics = false;
    throw error;
  }
}

/** The reason the server's last action failed, when it did, from Nova's record of it. */
async function lastFailure(cloud: Cloud, id: string): Promise<TaskFault | null> {
  const last = await cloud.compute.lastAction(id);
  if (!last || last.message !== 'Error') return null;
  const events = await cloud.compute.actionEvents(id, last.request_id);
  const reason = events.find((e) => e.result === 'Error' && e.details)?.details;
  return novaFault(
    `The cloud could not ${last.action.replace(/_/g, ' ')}${reason ? `: ${reason}` : ''}`,
  );
}

/** The size of a flavor of the cloud's configuration (its name, for one the product lacks). */
function sizeKeyOf(cloud: Cloud, flavorName: string): string {
  for (const region of cloud.provider.regions) {
    for (const [size, flavor] of Object.entries(region.flavors)) {
      if (flavor === flavorName) return size;
    }
  }
  return flavorName;
}

function flavorNameFor(cloud: Cloud, sizeKey: string): string {
  for (const region of cloud.provider.regions) {
    const flavor = region.flavors[sizeKey as keyof typeof region.flavors];
    if (flavor) return flavor;
  }
  throw new ProviderRejection(`${cloud.provider.name} has no flavor for ${sizeKey}`);
}
