import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ENGINE_HEALTH_TTL_MS } from '../../server/domain/monitoring/diagnostics';
import type { ProviderDiagnostics } from '../../src/api/contract/health';
import { insertVms } from './support/vm-fixtures';
import { startVmWorld, type VmWorld } from './support/vm-world';

let w: VmWorld;
beforeAll(async () => {
  w = await startVmWorld();
});
afterAll(() => w.close());
beforeEach(() => {
  w.server.sim.faults.clear();
  // Each test sees the engine as it is now, not as the last one left it.
  w.server.clock.advance(ENGINE_HEALTH_TTL_MS + 1);
});

const remote = () => w.server.app.inject({ method: 'GET', url: '/api/v1/healthCheck/remoteAPI' });

describe('GET /healthCheck/remoteAPI', () => {
  it('answers, without authentication, that each driver reaches its engine', async () => {
    const res = await remote();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: {
        status: 'ok',
        drivers: [{ driver: 'sim', status: 'ok', latencyMs: expect.any(Number) }],
      },
      message: 'Providers are reachable',
    });
  });

  it('answers 503 when an engine does not answer, without its error text', async () => {
    w.server.sim.faults.inject({ kind: 'unavailable', action: 'health' });
    const res = await remote();
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      data: {
        status: 'unavailable',
        drivers: [{ driver: 'sim', status: 'unavailable', latencyMs: expect.any(Number) }],
      },
      message: 'A provider is unreachable',
    });
    expect(res.body).not.toContain('sim engine unavailable');
  });
});

describe('GET /debug/debugSharktech', () => {
  it("tells an Admin each provider's health, regions and the company's VMs and failed operations", async () => {
    await w.runningVm('healthy');
    w.server.sim.faults.inject({ kind: 'fail', action: 'create', message: 'Host on fire' });
    await w.createVms('admin', { name: 'burnt' });
    await w.server.finishOperations();
    // Another company's VM at Northwind must not be counted.
    await insertVms(w.server.database.db, [
      { companyId: w.other.companyId, teamId: w.other.teamId, name: 'theirs' },
    ]);

    const res = await w.call('admin', 'GET', '/debug/debugSharktech');
    expect(res.status).toBe(200);
    const data = (res.body as { data: ProviderDiagnostics }).data;
    expect(data.providers.map((p) => [p.name, p.status, p.regions])).toEqual([
      ['Northwind Cloud', 'ok', ['Frankfurt', 'Los Angeles', 'Singapore']],
      ['Sharktech', 'ok', ['Amsterdam', 'Los Angeles', 'New York']],
    ]);
    expect(data.providers[0]!.vmsByStatus).toEqual({});
    expect(data.providers[1]!.vmsByStatus).toEqual({ Running: 1, Error: 1 });
    expect(data.operations).toEqual({ pending: 0, running: 0, failedLastDay: 1 });
    expect(data.recentFailures).toEqual([
      expect.objectContaining({ kind: 'vm.create', error: 'Host on fire', attempts: 1 }),
    ]);
  });

  it("says an engine does not answer, without the engine's own words", async () => {
    const words = 'ssh: connect to host hv-3.dc1.internal (10.20.0.7) port 22: No route to host';
    w.server.sim.faults.inject({ kind: 'unavailable', action: 'health', message: words });
    const res = await w.call('admin', 'GET', '/debug/debugSharktech');
    const data = (res.body as { data: ProviderDiagnostics }).data;
    expect(data.providers[0]).toMatchObject({
      status: 'unavailable',
      detail: 'The provider could not be reached',
    });
    expect(JSON.stringify(res.body)).not.toMatch(/hv-3|10\.20\.0\.7|ssh:/);
  });

  it('is for Admins only, and counts only their own company', async () => {
    expect(await w.call('manager', 'GET', '/debug/debugSharktech')).toMatchObject({
      status: 403,
      body: { message: 'Only Admins can do that' },
    });
    const res = await w.server.app.inject({ method: 'GET', url: '/api/v1/debug/debugSharktech' });
    expect(res.statusCode).toBe(401);
  });
});
