import { afterAll } from 'vitest';
import { startTestServer, type TestServer } from '../server/support/harness';
import { describeDriverConformance } from './conformance';

let server: TestServer | undefined;
afterAll(() => server?.close());

describeDriverConformance('sim', async () => {
  server = await startTestServer();
  const { sim, clock } = server;
  return {
    driver: sim,
    providerKey: 'sim-sharktech',
    regionKey: 'us-lax-1',
    imageKey: 'debian-12',
    sizeKeys: ['extraSmall', 'small'],
    network: {
      name: 'conformance',
      cidr: '10.20.0.0/24',
      gatewayIp: '10.20.0.1',
      dhcp: { start: '10.20.0.100', end: '10.20.0.200' },
      dnsServers: ['10.20.0.1'],
      defaultRoute: '10.20.0.1',
      snatIp: '198.18.0.10',
    },
    addresses: ['10.20.0.10', '10.20.0.11'],
    publicIps: ['198.18.0.11', '198.18.0.12'],
    // The engine's tasks end when a read comes after their end: the test clock moves them on.
    tick: async () => clock.advance(1000),
    maxTicks: 60,
    outage: {
      begin: async () => sim.faults.inject({ kind: 'unavailable', action: 'any', times: 100 }),
      end: async () => sim.faults.clear(),
    },
  };
});
