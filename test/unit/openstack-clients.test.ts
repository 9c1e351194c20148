import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProviderUnavailable } from '../../server/providers/driver';
import { ComputeClient } from '../../server/providers/openstack/compute';
import { openStackConfigSchema } from '../../server/providers/openstack/config';
import { OpenStackDriver } from '../../server/providers/openstack/driver';
import type { HttpRequest } from '../../server/providers/openstack/http';
import { NetworkClient } from '../../server/providers/openstack/network';
import type { ServiceType } from '../../server/providers/openstack/service-client';

/** A session answering each `<service> <method> <path>` from a table, and noting the calls. */
function fakeSession(answers: Record<string, unknown>) {
  const calls: string[] = [];
  return {
    calls,
    async call(service: ServiceType, path: string, request: HttpRequest = {}) {
      const key = `${service} ${request.method ?? 'GET'} ${path}`;
      calls.push(key);
      if (!(key in answers)) throw new Error(`unexpected call: ${key}`);
      return { body: answers[key] };
    },
    projectId: async () => 'project-1',
  };
}

/** A Nova server as microversion 2.84 answers it, with more than the driver reads. */
const novaServer = {
  server: {
    id: 'abc',
    name: 'web',
    status: 'ACTIVE',
    'OS-EXT-STS:task_state': null,
    'OS-EXT-STS:vm_state': 'active',
    flavor: { original_name: 'lp.micro', vcpus: 1, ram: 512, disk: 1, extra_specs: {} },
    tags: ['lp-token', 'lp-region-os-1'],
    addresses: { net: [{ addr: '10.0.0.10', version: 4 }] },
    links: [],
  },
};

describe("OpenStack's answers, read by each service's client", () => {
  it('reads a Nova server into what the driver uses, leaving out the rest', async () => {
    const nova = new ComputeClient(fakeSession({ 'compute GET /servers/abc': novaServer }));
    expect(await nova.getServer('abc')).toEqual({
      server: {
        id: 'abc',
        name: 'web',
        status: 'ACTIVE',
        'OS-EXT-STS:task_state': null,
        flavor: { original_name: 'lp.micro' },
        tags: ['lp-token', 'lp-region-os-1'],
      },
    });
  });

  it("finds the account's own tagged resources, and an event under way without a result", async () => {
    const session = fakeSession({
      'network GET /v2.0/ports?tags=lp-x&project_id=project-1': {
        ports: [{ id: 'p1', mac_address: '02:00:00:00:00:01', status: 'DOWN' }],
      },
      'compute GET /servers/abc/os-instance-actions/req-1': {
        instanceAction: {
          action: 'resize',
          events: [
            { event: 'compute_prep_resize', result: null },
            { event: 'conductor_migrate_server', result: 'Error', details: 'No valid host' },
          ],
        },
      },
    });
    expect(await new NetworkClient(session).portTagged('lp-x')).toEqual({
      id: 'p1',
      mac_address: '02:00:00:00:00:01',
    });
    expect(await new ComputeClient(session).actionEvents('abc', 'req-1')).toEqual([
      { result: null },
      { result: 'Error', details: 'No valid host' },
    ]);
  });

  it('says the engine is unavailable when an answer is not what the driver reads', async () => {
    const session = fakeSession({
      // A proxy's page where Nova should be, and a server without its status.
      'compute GET /flavors': '<html><body>502 Bad Gateway</body></html>',
      'compute GET /servers/abc': { server: { ...novaServer.server, status: undefined } },
      'network GET /v2.0/floatingips?port_id=p1': { floatingips: [{ id: 'f1' }] },
    });
    const nova = new ComputeClient(session);
    await expect(nova.flavorId('lp.micro')).rejects.toThrow(
      new ProviderUnavailable(
        "Nova's answer to GET /flavors is not what the driver reads " +
          '(Invalid input: expected object, received string)',
      ),
    );
    await expect(nova.getServer('abc')).rejects.toThrow(
      /^Nova's answer to GET \/servers\/abc is not what the driver reads \(server\.status: /,
    );
    await expect(new NetworkClient(session).floatingIpsOf('p1')).rejects.toBeInstanceOf(
      ProviderUnavailable,
    );
  });
});

describe('the OpenStack driver on answers it cannot read', () => {
  const driver = () =>
    new OpenStackDriver(
      openStackConfigSchema.parse({
        providers: [
          {
            key: 'lab',
            name: 'Lab',
            authUrl: 'http://keystone.test/v3',
            auth: { applicationCredentialId: 'id', applicationCredentialSecret: 'secret' },
            regions: [
              {
                key: 'os-1',
                countryCode: 'IS',
                countryName: 'Iceland',
                name: 'Lab',
                city: 'Reykjavik',
                publicIpPool: '203.0.113.64/26',
                externalNetwork: 'public',
                images: [{ key: 'busybox', name: 'B', username: 'lp', glanceImage: 'busybox' }],
                flavors: { micro: 'lp.micro' },
              },
            ],
          },
        ],
      }),
      { consoleUrl: (ref) => `console/${ref}` },
    );
  const endpoint = (type: string, url: string) => ({
    type,
    endpoints: [{ interface: 'public', region_id: 'RegionOne', region: 'RegionOne', url }],
  });
  const token = {
    token: {
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
      project: { id: 'project-1', name: 'launchpad' },
      catalog: [
        endpoint('compute', 'http://nova.test/v2.1'),
        endpoint('network', 'http://neutron.test/'),
        endpoint('image', 'http://glance.test'),
      ],
    },
  };
  /** Answers fetch from a table by URL; Keystone's token comes with its header. */
  function cloud(answers: Record<string, unknown>) {
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const url = String(input);
      if (url === 'http://keystone.test/v3/auth/tokens') {
        const body = answers[url] ?? token;
        return new Response(JSON.stringify(body), { headers: { 'x-subject-token': 'tok' } });
      }
      if (!(url in answers)) return new Response('not here', { status: 404 });
      const body = answers[url];
      return new Response(typeof body === 'string' ? body : JSON.stringify(body));
    });
  }
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('reads a server as before: its state, its ports and no failure', async () => {
    cloud({
      'http://nova.test/v2.1/servers/abc': {
        server: { ...novaServer.server, status: 'SHUTOFF' },
      },
      'http://neutron.test/v2.0/ports?device_id=abc': {
        ports: [{ id: 'p1', mac_address: '02:00:00:00:00:01' }],
      },
      'http://nova.test/v2.1/servers/abc/os-instance-actions?limit=1': {
        instanceActions: [{ action: 'stop', message: null, request_id: 'req-1' }],
      },
    });
    expect(await driver().getServer('lab/abc')).toEqual({
      ref: 'lab/abc',
      powerState: 'shutoff',
      task: null,
      sizeKey: 'micro',
      ports: [{ ref: 'lab/p1', macAddress: '02:00:00:00:00:01' }],
      fault: null,
      usage: { cpu: 0, ram: 0 },
    });
  });

  it("makes nonsense from Nova, or from Keystone, the engine's unavailability", async () => {
    cloud({ 'http://nova.test/v2.1/servers/abc': { servers: [] } });
    await expect(driver().getServer('lab/abc')).rejects.toThrow(
      new ProviderUnavailable(
        "Could not read the server: Nova's answer to GET /servers/abc is not what the driver " +
          'reads (server: Invalid input: expected object, received undefined)',
      ),
    );

    cloud({ 'http://keystone.test/v3/auth/tokens': { token: { ...token.token, catalog: {} } } });
    const failed = driver().networking.getNetwork('os-1/n1');
    await expect(failed).rejects.toBeInstanceOf(ProviderUnavailable);
    await expect(failed).rejects.toThrow(
      /^Could not read the network: Keystone's answer to a sign-in is not what the driver reads \(token\.catalog: /,
    );
    const health = await driver().health();
    expect(health).toMatchObject({ ok: false, detail: expect.stringMatching(/^lab: Keystone's/) });
  });
});
