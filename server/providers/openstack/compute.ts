import { z } from '../../../src/api/contract/zod';
import { ProviderRejection } from '../driver';
import { DIAGNOSTICS_VERSION } from './diagnostics';
import { id, ServiceClient, type ServiceSession } from './service-client';

/** What Nova answers for a server (microversion 2.84), as far as the product reads it. */
const serverAnswer = z.object({
  server: z.object({
    id,
    name: z.optional(z.string()),
    status: z.string(),
    'OS-EXT-STS:task_state': z.nullish(z.string()),
    flavor: z.object({ original_name: z.string() }),
    fault: z.optional(z.object({ message: z.nullish(z.string()) })),
    tags: z.nullish(z.array(z.string())),
  }),
});
export type NovaServer = z.infer<typeof serverAnswer>;

const serverList = z.object({ servers: z.array(z.object({ id })) });
const created = z.object({ server: z.object({ id }) });
const flavorList = z.object({ flavors: z.array(z.object({ id, name: z.string() })) });
/** libvirt's counters by name (see diagnostics.ts). */
const diagnostics = z.record(z.string(), z.unknown());
const actionList = z.object({
  instanceActions: z.array(
    z.object({ action: z.string(), message: z.nullish(z.string()), request_id: z.string() }),
  ),
});
const actionDetail = z.object({
  instanceAction: z.object({
    // An event under way has no result yet.
    events: z.nullish(
      z.array(z.object({ result: z.nullish(z.string()), details: z.nullish(z.string()) })),
    ),
  }),
});
const imageCreated = z.object({ image_id: id });
const remoteConsole = z.object({ remote_console: z.object({ url: z.string() }) });

/** What the product asks Nova to boot (`POST /servers`). */
export interface ServerCreate {
  name: string;
  imageRef: string;
  flavorRef: string;
  networks: { port: string }[];
  config_drive: boolean;
  user_data: string;
  tags: string[];
}

/** Nova: servers, their actions and diagnostics, flavors, remote consoles. */
export class ComputeClient {
  private readonly api: ServiceClient;

  constructor(session: ServiceSession) {
    this.api = new ServiceClient(session, 'compute', 'Nova');
  }

  /** The server tagged so (the driver tags each server with its client token), if any. */
  async serverTagged(tag: string): Promise<string | undefined> {
    return (await this.api.read(serverList, `/servers?tags=${tag}`)).servers[0]?.id;
  }

  async createServer(server: ServerCreate): Promise<string> {
    const answer = await this.api.read(created, '/servers', { method: 'POST', body: { server } });
    return answer.server.id;
  }

  /** A 404 (no such server) is thrown as `OpenStackHttpError`, for the callers that expect it. */
  getServer(serverId: string): Promise<NovaServer> {
    return this.api.read(serverAnswer, `/servers/${serverId}`);
  }

  deleteServer(serverId: string): Promise<void> {
    return this.api.send(`/servers/${serverId}`, { method: 'DELETE' });
  }

  /** One of Nova's server actions: `{ 'os-start': null }`, `{ resize: { flavorRef } }`… */
  action(serverId: string, body: Record<string, unknown>): Promise<void> {
    return this.api.send(`/servers/${serverId}/action`, { method: 'POST', body });
  }

  diagnostics(serverId: string): Promise<Record<string, unknown>> {
    return this.api.read(diagnostics, `/servers/${serverId}/diagnostics`, {
      headers: { 'openstack-api-version': DIAGNOSTICS_VERSION },
      // The figures are a nicety: a compute host slow to answer does not hold up the state.
      timeoutMs: 5000,
    });
  }

  /** The server's last action (Nova's record: its name, `Error` when it failed, its request). */
  async lastAction(serverId: string) {
    const path = `/servers/${serverId}/os-instance-actions?limit=1`;
    return (await this.api.read(actionList, path)).instanceActions[0];
  }

  /** The events of one of the server's actions, with their results and Nova's details. */
  async actionEvents(serverId: string, requestId: string) {
    const path = `/servers/${serverId}/os-instance-actions/${requestId}`;
    return (await this.api.read(actionDetail, path)).instanceAction.events ?? [];
  }

  /** Adds one tag to the server (Nova keeps at most 50). */
  addTag(serverId: string, tag: string): Promise<void> {
    return this.api.send(`/servers/${serverId}/tags/${encodeURIComponent(tag)}`, {
      method: 'PUT',
    });
  }

  removeTag(serverId: string, tag: string): Promise<void> {
    return this.api.send(`/servers/${serverId}/tags/${encodeURIComponent(tag)}`, {
      method: 'DELETE',
    });
  }

  /** Nova's image of the server (a snapshot, in Glance); answers the image's id (2.45 and later). */
  async createImage(serverId: string, name: string, metadata: Record<string, string>) {
    const answer = await this.api.read(imageCreated, `/servers/${serverId}/action`, {
      method: 'POST',
      body: { createImage: { name, metadata } },
    });
    return answer.image_id;
  }

  /** The flavor's id, from its name or its id. */
  async flavorId(nameOrId: string): Promise<string> {
    const { flavors } = await this.api.read(flavorList, '/flavors');
    const flavor = flavors.find((f) => f.name === nameOrId || f.id === nameOrId);
    if (!flavor) throw new ProviderRejection(`The cloud has no flavor ${nameOrId}`);
    return flavor.id;
  }

  /** The address of a noVNC console of the server, on Nova's proxy. */
  async remoteConsoleUrl(serverId: string): Promise<string> {
    const answer = await this.api.read(remoteConsole, `/servers/${serverId}/remote-consoles`, {
      method: 'POST',
      body: { remote_console: { protocol: 'vnc', type: 'novnc' } },
    });
    return answer.remote_console.url;
  }

  /** Plugs a port into the server; Nova answers once the compute host has plugged it. */
  attachInterface(serverId: string, portId: string, timeoutMs: number): Promise<void> {
    return this.api.send(`/servers/${serverId}/os-interface`, {
      method: 'POST',
      body: { interfaceAttachment: { port_id: portId } },
      timeoutMs,
    });
  }

  /** Nova unplugs in the background: it answers 202 at once. */
  detachInterface(serverId: string, portId: string): Promise<void> {
    return this.api.send(`/servers/${serverId}/os-interface/${portId}`, { method: 'DELETE' });
  }
}
