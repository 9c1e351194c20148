import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  ProviderRejection,
  ProviderUnavailable,
  type NetworkSpec,
  type NetworkState,
  type PortState,
  type ProviderDriver,
  type ServerState,
} from '../../server/providers/driver';

/** A driver, the engine behind it, and what to build on it. */
export interface DriverUnderTest {
  driver: ProviderDriver;
  /** Where to build: a provider's region offering the image and both sizes. */
  providerKey: string;
  regionKey: string;
  imageKey: string;
  /** A size to create with, and a larger one to resize to. */
  sizeKeys: [string, string];
  /** A standard network (DHCP, gateway, SNAT) the engine can build in the region. */
  network: NetworkSpec;
  /** Free addresses of that network: the server's first port and its second. */
  addresses: [string, string];
  /** Two free addresses of the region's public IP pool. */
  publicIps: [string, string];
  /** Lets time pass: the test clock on an embedded engine, a real pause on a real one. */
  tick(): Promise<void>;
  /** How many ticks a task may take before the suite gives up on it. */
  maxTicks: number;
  /** Makes the engine unreachable, then reachable again; left out where that cannot be done. */
  outage?: { begin(): Promise<void>; end(): Promise<void> };
  /**
   * How the engine tells a call it has had: by its record of the client tokens (the default), so
   * that a new token asking for what is done already is refused; or, for an engine that keeps no
   * record of its own (OpenStack's: the cloud is the record), by the state the call leads to, so
   * that such a call changes nothing. A repeated token is a repeat either way.
   */
  repeats?: 'by-token' | 'by-state';
  /**
   * The keys the suite's server is given (the generated pair's and a user's account keys), for
   * checks that log in with them; a placeholder key where none does.
   */
  authorizedKeys?: string[];
  /**
   * The engine's own checks, each run on the suite's server at its point of the customer's order:
   * what only a real engine shows (its guest reached on its public IP, its records in the cloud).
   * A check leaves the server's state as it found it; it may move its primary port's public IP.
   */
  checks?: {
    /** Just created, running, with its public IP. */
    running?(server: ServerState): Promise<void>;
    /** Running again after its reboot. */
    rebooted?(server: ServerState): Promise<void>;
    /** Shut off, with its one port. */
    stopped?(server: ServerState): Promise<void>;
  };
}

const token = () => randomUUID();

/** A MAC address of the locally administered range, different at each call. */
function mac() {
  const bytes = [0x02, ...Array.from({ length: 5 }, () => Math.floor(Math.random() * 256))];
  return bytes.map((b) => b.toString(16).padStart(2, '0')).join(':');
}

/**
 * What every `ProviderDriver` must do, whatever its engine: the same calls in the same order, with
 * the states a server, a network and a port go through, idempotency by client token, and errors as
 * `ProviderRejection` (the request cannot succeed) or `ProviderUnavailable` (the engine cannot be
 * reached). The tests of one driver share one engine and run in order, as a customer's would.
 */
export function describeDriverConformance(
  name: string,
  start: () => Promise<DriverUnderTest>,
  /** Each test's time limit, for a real engine's tasks: the project's when left out. */
  options: { timeoutMs?: number } = {},
) {
  describe(`the ${name} driver, as every driver`, { timeout: options.timeoutMs }, () => {
    let t: DriverUnderTest;
    let networkRef: string;
    let serverRef: string;
    let portRef: string;
    const serverToken = token();

    /** Reads until `done` holds, a tick between reads; fails after `maxTicks`. */
    async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string) {
      let value = await read();
      for (let n = 0; !done(value); n += 1) {
        if (n >= t.maxTicks) throw new Error(`still waiting for ${what}: ${JSON.stringify(value)}`);
        await t.tick();
        value = await read();
      }
      return value;
    }
    const server = () => t.driver.getServer(serverRef);
    const atRest = (state: ServerState['powerState']) => (s: ServerState | null) =>
      s?.powerState === state && s.task === null;
    const network = () => t.driver.networking.getNetwork(networkRef);
    const active = (n: NetworkState | PortState | null) => n?.status === 'active';

    it('describes a catalogue whose offers name its own regions, images and sizes', async () => {
      t = await start();
      const catalog = await t.driver.catalog();
      const regionKeys = new Set(catalog.regions.map((r) => r.key));
      for (const region of catalog.regions) {
        expect(region.publicIpPool, region.key).toMatch(/^\d+\.\d+\.\d+\.\d+\/\d+$/);
      }
      for (const provider of catalog.providers) {
        for (const offer of provider.offers) {
          expect(regionKeys.has(offer.regionKey), offer.regionKey).toBe(true);
          for (const imageKey of offer.imageKeys) {
            const image = catalog.images.find(
              (i) => i.regionKey === offer.regionKey && i.key === imageKey,
            );
            expect(image?.username, `${offer.regionKey}/${imageKey}`).toBeTruthy();
          }
        }
      }
      const offer = catalog.providers
        .find((p) => p.key === t.providerKey)
        ?.offers.find((o) => o.regionKey === t.regionKey);
      expect(offer?.imageKeys).toContain(t.imageKey);
      expect(offer?.sizeKeys).toEqual(expect.arrayContaining(t.sizeKeys));
    });

    it('says it is healthy, with the time the engine took', async () => {
      const health = await t.driver.health();
      expect(health.ok).toBe(true);
      expect(health.latencyMs).toBeGreaterThanOrEqual(0);
    });

    it('builds a network once per client token, then applies a change to it', async () => {
      const { networking } = t.driver;
      const create = token();
      ({ ref: networkRef } = await networking.createNetwork(t.regionKey, t.network, create));
      expect((await networking.createNetwork(t.regionKey, t.network, create)).ref).toBe(networkRef);
      await until(network, active, 'the network built');

      const update = token();
      const changed = { ...t.network, dnsServers: ['192.0.2.53'] };
      await networking.updateNetwork(networkRef, changed, update);
      await networking.updateNetwork(networkRef, changed, update);
      const after = await until(network, active, 'the network updated');
      expect(after?.fault).toBeNull();
    });

    it('refuses a server the region does not offer, as a rejection', async () => {
      const request = {
        clientToken: token(),
        providerKey: t.providerKey,
        regionKey: t.regionKey,
        imageKey: t.imageKey,
        sizeKey: 'no-such-size',
        name: 'conformance-refused',
        username: 'launchpad',
        password: 'Conformance-Passw0rd',
        authorizedKeys: ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIH0y conformance'],
        primaryPort: { networkRef, fixedIp: t.addresses[0], macAddress: mac() },
        publicIp: null,
      };
      await expect(t.driver.createServer(request)).rejects.toBeInstanceOf(ProviderRejection);
    });

    it('creates a server once per client token: building, then running with its port', async () => {
      const macAddress = mac();
      const request = {
        clientToken: serverToken,
        providerKey: t.providerKey,
        regionKey: t.regionKey,
        imageKey: t.imageKey,
        sizeKey: t.sizeKeys[0],
        name: 'conformance',
        username: 'launchpad',
        password: 'Conformance-Passw0rd',
        authorizedKeys: t.authorizedKeys ?? [
          'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIH0y conformance',
        ],
        primaryPort: { networkRef, fixedIp: t.addresses[0], macAddress },
        publicIp: t.publicIps[0],
      };
      ({ ref: serverRef } = await t.driver.createServer(request));
      expect((await t.driver.createServer(request)).ref).toBe(serverRef);

      const building = await server();
      expect(building?.ref).toBe(serverRef);
      expect(['building', 'running']).toContain(building?.powerState);

      const running = await until(server, atRest('running'), 'the server running');
      expect(running).toMatchObject({ sizeKey: t.sizeKeys[0], fault: null });
      expect(running!.ports.map((p) => p.macAddress)).toEqual([macAddress]);
      expect(running!.usage.cpu).toBeGreaterThanOrEqual(0);
      expect(running!.usage.cpu).toBeLessThanOrEqual(100);
      await t.checks?.running?.(running!);
    });

    it("gives a running server's console address", async () => {
      expect(typeof (await t.driver.consoleUrl(serverRef))).toBe('string');
    });

    it("streams a running server's screen as RFB, where the product serves the console", async (context) => {
      if (!t.driver.openConsole) return context.skip();
      const stream = await t.driver.openConsole(serverRef);
      try {
        // The guest's VNC server speaks first: its protocol version.
        const [greeting] = (await once(stream, 'data')) as [Buffer];
        expect(greeting.toString('latin1')).toMatch(/^RFB \d{3}\.\d{3}\n/);
      } finally {
        stream.destroy();
      }
    });

    it('refuses to start a running server, as a rejection (by state: leaves it as it is)', async () => {
      const start = t.driver.startServer(serverRef, token());
      if (t.repeats !== 'by-state') {
        await expect(start).rejects.toBeInstanceOf(ProviderRejection);
        return;
      }
      await start;
      expect(await server()).toMatchObject({ powerState: 'running', task: null, fault: null });
    });

    it('reboots a running server back to running', async () => {
      const reboot = token();
      await t.driver.rebootServer(serverRef, reboot);
      await t.driver.rebootServer(serverRef, reboot);
      const rebooted = await until(server, atRest('running'), 'the server rebooted');
      await t.checks?.rebooted?.(rebooted!);
    });

    it('stops a server once per client token: powering off, then shut off', async () => {
      const stop = token();
      await t.driver.stopServer(serverRef, stop);
      await t.driver.stopServer(serverRef, stop);
      const stopped = await until(server, atRest('shutoff'), 'the server shut off');
      expect(stopped!.usage).toEqual({ cpu: 0, ram: 0 });
      await t.checks?.stopped?.(stopped!);
    });

    it('plugs a second port into the shut-off server, once per client token', async () => {
      const { networking } = t.driver;
      const attach = token();
      const port = { networkRef, fixedIp: t.addresses[1], macAddress: mac() };
      ({ ref: portRef } = await networking.attachPort(serverRef, port, attach));
      expect((await networking.attachPort(serverRef, port, attach)).ref).toBe(portRef);
      const attached = await until(() => networking.getPort(portRef), active, 'the port attached');
      expect(attached).toMatchObject({ serverRef, publicIp: null, fault: null });
      const withPort = await server();
      expect(withPort!.ports.map((p) => p.macAddress)).toContain(port.macAddress);
    });

    it('puts a public IP on the port and takes it off, once per client token', async () => {
      const { networking } = t.driver;
      const allocate = token();
      await networking.allocatePublicIp(portRef, t.publicIps[1], allocate);
      await networking.allocatePublicIp(portRef, t.publicIps[1], allocate);
      const port = () => networking.getPort(portRef);
      const settled = (p: PortState | null) => p?.status === 'active' && !p.busy;
      expect(await until(port, settled, 'the address on')).toMatchObject({
        publicIp: t.publicIps[1],
      });

      const release = token();
      await networking.releasePublicIp(portRef, release);
      await networking.releasePublicIp(portRef, release);
      expect(await until(port, settled, 'the address off')).toMatchObject({ publicIp: null });
    });

    it('unplugs the port: gone once detached', async () => {
      const { networking } = t.driver;
      const detach = token();
      await networking.detachPort(portRef, detach);
      await networking.detachPort(portRef, detach);
      await until(
        () => networking.getPort(portRef),
        (p) => p === null,
        'the port gone',
      );
    });

    it('resizes the shut-off server to the larger size, then starts it', async () => {
      const resize = token();
      await t.driver.resizeServer(serverRef, t.sizeKeys[1], resize);
      await t.driver.resizeServer(serverRef, t.sizeKeys[1], resize);
      await until(server, (s) => s?.task === null && s.sizeKey === t.sizeKeys[1], 'the new size');

      const startToken = token();
      await t.driver.startServer(serverRef, startToken);
      await t.driver.startServer(serverRef, startToken);
      await until(server, atRest('running'), 'the server running again');
    });

    it('says the engine is unavailable while it cannot be reached, and works once it is back', async (context) => {
      if (!t.outage) return context.skip();
      await t.outage.begin();
      try {
        expect((await t.driver.health()).ok).toBe(false);
        await expect(t.driver.rebootServer(serverRef, token())).rejects.toBeInstanceOf(
          ProviderUnavailable,
        );
      } finally {
        await t.outage.end();
      }
      expect((await t.driver.health()).ok).toBe(true);
      expect((await server())?.powerState).toBe('running');
    });

    it('deletes the server once per client token, then the network: both gone', async () => {
      const remove = token();
      await t.driver.deleteServer(serverRef, remove);
      await t.driver.deleteServer(serverRef, remove);
      await until(server, (s) => s === null, 'the server gone');

      const removeNetwork = token();
      await t.driver.networking.deleteNetwork(networkRef, removeNetwork);
      await t.driver.networking.deleteNetwork(networkRef, removeNetwork);
      await until(network, (n) => n === null, 'the network gone');
    });
  });
}
