import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ENGINE_HEALTH_TTL_MS } from '../../server/domain/monitoring/diagnostics';
import { HEALTH_CHECKS_PER_MINUTE } from '../../server/routes/health';
import { startTestServer, type TestServer } from './support/harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('health checks', () => {
  it('answers the API check without authentication, with the release of package.json', async () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    const res = await server.app.inject({ method: 'GET', url: '/api/v1/healthCheck/api' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { status: 'ok', version }, message: 'API is healthy' });
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('answers the database check with a real query', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/v1/healthCheck/database' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.status).toBe('ok');
    expect(typeof res.json().data.latencyMs).toBe('number');
  });

  it('answers 503 when the database is gone', async () => {
    const broken = await startTestServer();
    await broken.database.close();
    const res = await broken.app.inject({ method: 'GET', url: '/api/v1/healthCheck/database' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      data: { status: 'unavailable' },
      message: 'Database is unavailable',
    });
    await broken.close();
  });

  it('answers unknown API paths with a 404 envelope', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/v1/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ data: null, message: 'Not found' });
  });

  it('asks the engines once for concurrent remote checks, and not again for a while', async () => {
    const health = vi.spyOn(server.sim, 'health');
    const remote = () =>
      server.app.inject({
        method: 'GET',
        url: '/api/v1/healthCheck/remoteAPI',
        remoteAddress: '192.0.2.1',
      });
    server.clock.advance(ENGINE_HEALTH_TTL_MS + 1);
    const answers = await Promise.all(Array.from({ length: 10 }, remote));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
    expect(health).toHaveBeenCalledTimes(1);
    server.clock.advance(ENGINE_HEALTH_TTL_MS);
    expect((await remote()).statusCode).toBe(200);
    expect(health).toHaveBeenCalledTimes(1);
    server.clock.advance(1);
    expect((await remote()).statusCode).toBe(200);
    expect(health).toHaveBeenCalledTimes(2);
    health.mockRestore();
  });

  it('limits the remote and database checks per client address', async () => {
    const check = (what: string, remoteAddress: string) =>
      server.app.inject({ method: 'GET', url: `/api/v1/healthCheck/${what}`, remoteAddress });
    for (const what of ['remoteAPI', 'database']) {
      for (let i = 0; i < HEALTH_CHECKS_PER_MINUTE; i += 1) {
        expect((await check(what, '198.51.100.7')).statusCode).toBe(200);
      }
      const refused = await check(what, '198.51.100.7');
      expect(refused.statusCode, what).toBe(429);
      expect((await check(what, '198.51.100.8')).statusCode, what).toBe(200);
    }
  });
});
