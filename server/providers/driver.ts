import type { Duplex } from 'node:stream';

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
  /** The region's public IPv4 block (`a.b.c.d/p`): its host addresses are the public IP pool. */
  publicIpPool: string;
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
  | 'spawning'
  | 'powering-on'
  | 'powering-off'
  | 'rebooting'
  | 'resizing'
  | 'rebuilding'
  | 'restoring'
  | 'deleting';

/** What the product decides about a port: its network, its address and its MAC. */
export interface PortRequest {
  networkRef: string;
  /** null on a network without address management (layer 2 only). */
  fixedIp: string | null;
  macAddress: string;
}

export interface ServerState {
  ref: string;
  powerState: ServerPowerState;
  /** The task under way, or null when the server is at rest. */
  task: ServerTask | null;
  sizeKey: string;
  /** The server's ports, by their MAC address. */
  ports: { ref: string; macAddress: string }[];
  /** What went wrong, when powerState is `error` or the last task failed. */
  fault: TaskFault | null;
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
  /**
   * Every key the guest must accept, OpenSSH lines put in the user's authorized_keys: the
   * generated pair's public key when there is one, and the account keys the user chose.
   */
  authorizedKeys: string[];
  /**
   * The generated pair's public key (also in `authorizedKeys`), or null when only account keys
   * were chosen; for engines that keep it apart (the sim records it).
   */
  generatedPublicKey?: string | null;
  /** The primary port, created with the server. */
  primaryPort: PortRequest;
  /** A public address NATed to the primary port, or null. */
  publicIp: string | null;
}

/**
 * A server's disk laid down afresh from an image (the same or another of its region), with new
 * credentials delivered by cloud-init; its name, size, ports and public IPs stay.
 */
export interface RebuildServerRequest {
  clientToken: string;
  imageKey: string;
  username: string;
  password: string;
  /** Every key the guest must accept (as in `CreateServerRequest`). */
  authorizedKeys: string[];
  /** The generated pair's public key (also in `authorizedKeys`), or null. */
  generatedPublicKey?: string | null;
}

/** A network as the product manages it: the engine applies what it is given. */
export interface NetworkSpec {
  name: string;
  cidr: string;
  gatewayIp: string | null;
  dhcp: { start: string; end: string } | null;
  dnsServers: string[];
  defaultRoute: string | null;
  /** The address outbound traffic leaves from, when SNAT is on. */
  snatIp: string | null;
}

export interface NetworkState {
  ref: string;
  status: 'building' | 'active' | 'updating' | 'deleting';
  fault: TaskFault | null;
}

export interface PortState {
  ref: string;
  serverRef: string;
  /** `error`: the attach failed (the port is gone; `fault` says why). */
  status: 'attaching' | 'active' | 'detaching' | 'error';
  /** A public address change under way. */
  busy: boolean;
  publicIp: string | null;
  fault: TaskFault | null;
}

/** A snapshot of a server's disk, as the engine has it. */
export interface SnapshotState {
  ref: string;
  status: 'creating' | 'available' | 'deleting' | 'error';
  /** Bytes it holds, once the engine says. */
  sizeBytes: number | null;
  /** Why it is in error. */
  fault: TaskFault | null;
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
  /**
   * Reinstalls the server from an image: its disk is wiped and laid down afresh, the guest gets
   * the new credentials, and it ends as it was (running, or shut off); a server in error runs
   * again. A `rebuilding` task that `getServer` shows until it ends.
   */
  rebuildServer(ref: string, request: RebuildServerRequest): Promise<void>;
  /**
   * Takes a snapshot of the server's disk, running or shut off; answers its ref at once, and
   * `getSnapshot` says when it is available (with its size). The server stays as it was.
   */
  createSnapshot(serverRef: string, name: string, clientToken: string): Promise<{ ref: string }>;
  /** null once deleted (or never made). */
  getSnapshot(ref: string): Promise<SnapshotState | null>;
  /**
   * Puts the server's disk back as it was in the snapshot: a server task (`restoring`) that
   * `getServer` shows until it ends; a server that ran runs again afterwards.
   */
  restoreSnapshot(serverRef: string, snapshotRef: string, clientToken: string): Promise<void>;
  /** Deletes the snapshot (the server may be gone already); `getSnapshot` then answers null. */
  deleteSnapshot(ref: string, clientToken: string): Promise<void>;
  /** The address of a running server's console page, to which the product adds a ticket. */
  consoleUrl(ref: string): Promise<string>;
  /**
   * For engines whose console the product itself serves (through its console gateway): the
   * running server's VNC byte stream (RFB), opened afresh for each viewer. Engines that serve a
   * console page of their own leave it out.
   */
  openConsole?(ref: string): Promise<Duplex>;
  /** Networks, ports and public IPs: one object, which the driver builds and callers reach. */
  readonly networking: ProviderNetworking;

  health(): Promise<ProviderHealth>;
}

/**
 * The networking part of the contract (Neutron's, on OpenStack). A driver exposes it as one
 * object, `driver.networking`, made by a class of its own, rather than forwarding each call.
 */
export interface ProviderNetworking {
  createNetwork(
    regionKey: string,
    spec: NetworkSpec,
    clientToken: string,
  ): Promise<{ ref: string }>;
  updateNetwork(ref: string, spec: NetworkSpec, clientToken: string): Promise<void>;
  deleteNetwork(ref: string, clientToken: string): Promise<void>;
  /** null once deleted. */
  getNetwork(ref: string): Promise<NetworkState | null>;
  /** Plugs a port into a server that is shut off (no hot-plug). */
  attachPort(serverRef: string, port: PortRequest, clientToken: string): Promise<{ ref: string }>;
  detachPort(ref: string, clientToken: string): Promise<void>;
  /** null once detached (or gone with its server). */
  getPort(ref: string): Promise<PortState | null>;
  /** NATs the public address (chosen by the product from the region's pool) to the port. */
  allocatePublicIp(portRef: string, address: string, clientToken: string): Promise<void>;
  releasePublicIp(portRef: string, clientToken: string): Promise<void>;
}

/**
 * The kinds of failure users are told apart, in words that name no engine, host or address
 * (`server/providers/public-failure.ts` holds the words).
 */
export type FailureKind = 'unreachable' | 'capacity' | 'refused' | 'timeout' | 'unknown';

/**
 * Why a task failed. A plain string is the engine's own words (libvirt's, Nova's, Neutron's), which
 * may name hosts, addresses or the engine's free memory: they go to the log, and users are told a
 * neutral reason. The object form says what kind of failure it was and, in `userMessage`, what
 * the driver wrote for the user about their own request, shown as it is.
 */
export type TaskFault = string | { engineText: string; kind: FailureKind; userMessage?: string };

/**
 * A refusal: the request cannot succeed as asked (retrying will not help). Its message is the
 * driver's, written for the user about their own request (an unknown size, a busy server): users
 * see it as it is. A refusal in the engine's own words is an `EngineRejection`.
 */
export class ProviderRejection extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderRejection';
  }
}

/**
 * A refusal in the engine's own words (virsh's error, Keystone's answer, a host's free memory):
 * retrying will not help either, but the words name hosts, addresses and the engine's inner
 * state, so they go to the log and users are told only that it was refused, or out of capacity.
 */
export class EngineRejection extends ProviderRejection {
  constructor(
    message: string,
    readonly kind: 'refused' | 'capacity' = 'refused',
  ) {
    super(message);
    this.name = 'EngineRejection';
  }
}

/**
 * The engine could not be reached or failed on its side: the same call may work later. The
 * message is for the log; users are told that the host cannot be reached.
 */
export class ProviderUnavailable extends Error {
  constructor(message = 'The provider could not be reached') {
    super(message);
    this.name = 'ProviderUnavailable';
  }
}
