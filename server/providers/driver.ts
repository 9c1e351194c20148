/**
 * What the product needs from an infrastructure engine, in the primitives every IaaS engine has
 * (OpenStack Nova/Neutron, libvirt): a catalogue, servers, networks, ports and public IPs.
 *
 * Every state-changing call takes a client token and is idempotent by it: the same token twice
 * does the work once and answers the same. Calls return quickly; the truth about a server's state
 * comes from `getServer`, which the reconciler polls until the work is done.
 */

export interface CatalogRegion {
  key: string;
  countryCode: string;
  countryName: string;
  name: string;
  city: string;
}

export interface CatalogImage {
  regionKey: string;
  key: string;
  name: string;
  /** The login the image creates. */
  username: string;
}

/** One provider account of the engine, and what it offers where. */
export interface CatalogProvider {
  key: string;
  name: string;
  /** Per region: the image keys and the size keys (`micro` … `extraLarge`) it offers. */
  offers: { regionKey: string; imageKeys: string[]; sizeKeys: string[] }[];
}

export interface Catalog {
  regions: CatalogRegion[];
  images: CatalogImage[];
  providers: CatalogProvider[];
}

export type ServerPowerState = 'building' | 'running' | 'shutoff' | 'error' | 'deleted';
export type ServerTask =
  'spawning' | 'powering-on' | 'powering-off' | 'rebooting' | 'resizing' | 'deleting';

export interface ServerState {
  ref: string;
  powerState: ServerPowerState;
  /** The task under way, or null when the server is at rest. */
  task: ServerTask | null;
  sizeKey: string;
  /** What went wrong, when powerState is `error` or the last task failed. */
  fault: string | null;
  /** Percentages 0-100; 0 when the server does not run. */
  usage: { cpu: number; ram: number };
}

export interface CreateServerRequest {
  clientToken: string;
  providerKey: string;
  regionKey: string;
  imageKey: string;
  sizeKey: string;
  name: string;
  username: string;
  password: string;
  /** OpenSSH public key put in the user's authorized_keys. */
  publicKey: string;
}

export interface ProviderHealth {
  ok: boolean;
  latencyMs: number;
  detail?: string;
}

export interface ProviderDriver {
  /** The driver's name in the `providers.driver` column. */
  readonly kind: string;
  catalog(): Promise<Catalog>;
  /** Answers the server's ref at once; the server then builds (`task: 'spawning'`). */
  createServer(request: CreateServerRequest): Promise<{ ref: string }>;
  /** null when the engine has no such server (never created, or deleted and gone). */
  getServer(ref: string): Promise<ServerState | null>;
  startServer(ref: string, clientToken: string): Promise<void>;
  stopServer(ref: string, clientToken: string): Promise<void>;
  rebootServer(ref: string, clientToken: string): Promise<void>;
  resizeServer(ref: string, sizeKey: string, clientToken: string): Promise<void>;
  deleteServer(ref: string, clientToken: string): Promise<void>;
  /** A short-lived address of the server's console, for a running server. */
  consoleUrl(ref: string): Promise<string>;
  health(): Promise<ProviderHealth>;
}

/** A refusal by the engine: the request cannot succeed as asked (retrying will not help). */
export class ProviderRejection extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderRejection';
  }
}

/** The engine could not be reached or failed on its side: the same call may work later. */
export class ProviderUnavailable extends Error {
  constructor(message = 'The provider could not be reached') {
    super(message);
    this.name = 'ProviderUnavailable';
  }
}
