import { describe, expect, it } from 'vitest';
import {
  EngineRejection,
  ProviderRejection,
  ProviderUnavailable,
} from '../../server/providers/driver';
import {
  engineMessage,
  OpenStackHttpError,
  toProviderError,
} from '../../server/providers/openstack/http';
import { cloudAllocationPools } from '../../server/providers/openstack/allocation-pools';
import { guestStatsOf } from '../../server/providers/openstack/diagnostics';
import type { NovaServer } from '../../server/providers/openstack/compute';
import { serverStateOf } from '../../server/providers/openstack/server-state';

describe("OpenStack's errors in the product's words", () => {
  it("reads each service's own message", () => {
    expect(
      engineMessage(400, '{"badRequest": {"message": "Invalid flavorRef", "code": 400}}'),
    ).toBe('Invalid flavorRef');
    expect(
      engineMessage(409, '{"NeutronError": {"type": "IpAddressInUse", "message": "IP in use"}}'),
    ).toBe('IP in use');
    expect(
      engineMessage(
        401,
        '{"error": {"code": 401, "message": "The request you have made requires authentication."}}',
      ),
    ).toMatch(/requires authentication/);
    expect(engineMessage(404, '<html><body><h1>404 Not Found</h1></body></html>')).toBe(
      '404 Not Found',
    );
    expect(engineMessage(502, '')).toBe('HTTP 502');
  });

  it('makes a 4xx a refusal with the message, and a 5xx or no answer unavailability', () => {
    const flavor = toProviderError(new OpenStackHttpError(400, 'Invalid flavorRef'), 'x');
    expect(flavor).toEqual(new ProviderRejection('Invalid flavorRef'));
    // The project's quota is shared by every tenant: its figures are for the log only.
    const quota = toProviderError(new OpenStackHttpError(403, 'Quota exceeded for cores'), 'x');
    expect(quota).toEqual(new EngineRejection('Quota exceeded for cores', 'capacity'));
    const policy = toProviderError(new OpenStackHttpError(403, 'Policy does not allow it'), 'x');
    expect(policy).toEqual(new EngineRejection('Policy does not allow it', 'refused'));
    const down = toProviderError(new OpenStackHttpError(503, 'Service Unavailable'), 'Could not x');
    expect(down).toBeInstanceOf(ProviderUnavailable);
    expect(down.message).toBe('Could not x: Service Unavailable');
    expect(toProviderError(new TypeError('fetch failed'), 'Could not x')).toBeInstanceOf(
      ProviderUnavailable,
    );
  });
});

describe("a Nova server in the product's words", () => {
  const server = (status: string, task: string | null = null, fault?: string): NovaServer => ({
    server: {
      id: 'abc',
      status,
      'OS-EXT-STS:task_state': task,
      flavor: { original_name: 'lp.micro' },
      ...(fault ? { fault: { message: fault } } : {}),
    },
  });
  const state = (answer: NovaServer) => serverStateOf('lab/abc', answer, 'micro', []);

  it('maps status and task', () => {
    expect(state(server('BUILD', 'spawning'))).toMatchObject({
      powerState: 'building',
      task: 'spawning',
    });
    expect(state(server('ACTIVE'))).toMatchObject({ powerState: 'running', task: null });
    expect(state(server('ACTIVE', 'powering-off'))).toMatchObject({ task: 'powering-off' });
    expect(state(server('SHUTOFF', 'powering-on'))).toMatchObject({
      powerState: 'shutoff',
      task: 'powering-on',
    });
    expect(state(server('RESIZE', 'resize_migrating'))).toMatchObject({ task: 'resizing' });
    expect(state(server('REBOOT', 'rebooting'))).toMatchObject({
      powerState: 'running',
      task: 'rebooting',
    });
  });

  it("reports an error with Nova's reason, no room as a lack of capacity", () => {
    expect(state(server('ERROR', null, 'No valid host was found.'))).toMatchObject({
      powerState: 'error',
      task: null,
      fault: { engineText: 'No valid host was found.', kind: 'capacity' },
    });
    expect(state(server('ERROR', null, 'Build of instance abc aborted'))).toMatchObject({
      fault: 'Build of instance abc aborted',
    });
  });
});

describe("a guest's load from Nova's diagnostics", () => {
  it('adds up the vCPUs and reads the balloon', () => {
    expect(
      guestStatsOf({
        cpu0_time: 4_000_000_000,
        cpu1_time: 1_000_000_000,
        memory: 524288,
        'memory-actual': 524288,
        'memory-available': 500000,
        'memory-unused': 400000,
        'memory-rss': 100000,
        vda_read: 12,
      }),
    ).toEqual({
      cpuTimeNs: 5_000_000_000,
      vcpus: 2,
      memoryKib: 524288,
      availableKib: 500000,
      unusedKib: 400000,
      rssKib: 100000,
    });
  });

  it('falls back to what the hypervisor reports when the guest has no balloon driver', () => {
    expect(guestStatsOf({ cpu0_time: 7, memory: 1024 })).toEqual({
      cpuTimeNs: 7,
      vcpus: 1,
      memoryKib: 1024,
      availableKib: null,
      unusedKib: null,
      rssKib: null,
    });
  });
});

describe("the addresses Neutron picks itself on a product network's subnet", () => {
  const spec = (dhcp: { start: string; end: string }, gatewayIp: string | null = '10.0.0.1') => ({
    name: 'n',
    cidr: '10.0.0.0/24',
    gatewayIp,
    dhcp,
    dnsServers: [],
    defaultRoute: null,
    snatIp: null,
  });

  it("are those outside the product's DHCP range, never the gateway", () => {
    expect(cloudAllocationPools(spec({ start: '10.0.0.100', end: '10.0.0.200' }))).toEqual([
      { start: '10.0.0.2', end: '10.0.0.99' },
      { start: '10.0.0.201', end: '10.0.0.254' },
    ]);
    expect(
      cloudAllocationPools(spec({ start: '10.0.0.1', end: '10.0.0.200' }, '10.0.0.254')),
    ).toEqual([{ start: '10.0.0.201', end: '10.0.0.253' }]);
  });

  it("are the range's last address when the range covers the block", () => {
    expect(cloudAllocationPools(spec({ start: '10.0.0.2', end: '10.0.0.254' }))).toEqual([
      { start: '10.0.0.254', end: '10.0.0.254' },
    ]);
  });
});
