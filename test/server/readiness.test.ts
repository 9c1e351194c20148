import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Readiness } from '../../src/api/contract/health';
import { createReadiness } from '../../server/readiness';
import { READINESS_CHECKS_PER_MINUTE } from '../../server/routes/health';
import { startTestServer, type TestServer } from './support/harness';

/**
 * The readiness check a load balancer or a Kubernetes probe asks before sending a process
 * requests, apart from liveness: each check named, 503 while one fails.
 */

const READY = '/api/v1/healthCheck/ready';
const LIVE = '/api/v1/healthCheck/api';

const ask = (server: TestServer, url = READY, remoteAddress = '203.0.113.9') =>
  server.app.inject({ method: 'GET', url, remoteAddress });

const allOk: Readiness['checks'] = {
  migrations: 'ok',
  database: 'ok',
  catalogue: 'ok',
  process: 'ok',
};

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('GET /healthCheck/ready', () => {
  it('is ready once the migrations are applied, the catalogue synced and the database answers', async () => {
    const res = await ask(server);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { status: 'ready', checks: allOk }, message: 'Ready' });
    expect(res.headers.connection).not.toBe('close');
  });

  it('says which stage of the start is not over, while liveness answers throughout', async () => {
    const readiness = createReadiness();
    const starting = await startTestServer({}, { readiness });
    try {
      let res = await ask(starting);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        data: {
          status: 'unavailable',
          checks: { ...allOk, migrations: 'pending', catalogue: 'pending' },
        },
        message: 'Not ready: migrations pending, catalogue not synced',
      });
      expect((await ask(starting, LIVE)).statusCode).toBe(200);

      readiness.migrated();
      res = await ask(starting);
      expect(res.statusCode).toBe(503);
      expect(res.json().data.checks).toEqual({ ...allOk, catalogue: 'pending' });
      expect(res.json().message).toBe('Not ready: catalogue not synced');

      readiness.catalogueSynced();
      expect((await ask(starting)).statusCode).toBe(200);
    } finally {
      await starting.close();
    }
  });

  it('names the database when it does not answer', async () => {
    const broken = await startTestServer();
    await broken.database.close();
    const res = await ask(broken);
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      data: { status: 'unavailable', checks: { ...allOk, database: 'unavailable' } },
      message: 'Not ready: database unavailable',
    });
    expect((await ask(broken, LIVE)).statusCode).toBe(200);
    await broken.close();
  });

  it('answers 503 when the database hangs, asking it once for checks that come together', async () => {
    const execute = vi
      .spyOn(server.database.db, 'execute')
      .mockImplementation(() => new Promise(() => {}) as never);
    try {
      const answers = await Promise.all([ask(server), ask(server), ask(server)]);
      for (const res of answers) {
        expect(res.statusCode).toBe(503);
        expect(res.json().message).toBe('Not ready: database unavailable');
      }
      expect(execute).toHaveBeenCalledTimes(1);
    } finally {
      execute.mockRestore();
    }
    // Back: the next check asks again, rather than waiting on the query that hung.
    expect((await ask(server)).statusCode).toBe(200);
  });

  it('answers 503 from the start of a shutdown, and every answer then closes its connection', async () => {
    const leaving = await startTestServer();
    try {
      leaving.readiness.beginShutdown();
      const res = await ask(leaving);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        data: { status: 'unavailable', checks: { ...allOk, process: 'shuttingDown' } },
        message: 'Not ready: shutting down',
      });
      expect(res.headers.connection).toBe('close');
      // Alive and still answering, but no client keeps the connection for another request.
      const live = await ask(leaving, LIVE);
      expect(live.statusCode).toBe(200);
      expect(live.headers.connection).toBe('close');
    } finally {
      await leaving.close();
    }
  });

  it("limits checks per client address, well above a load balancer's polling", async () => {
    // Two checks a second of each of a few processes from one balancer stay far below it.
    expect(READINESS_CHECKS_PER_MINUTE).toBeGreaterThanOrEqual(2 * 60 * 2);
    for (let i = 0; i < READINESS_CHECKS_PER_MINUTE; i += 1) {
      expect((await ask(server, READY, '198.51.100.70')).statusCode).toBe(200);
    }
    expect((await ask(server, READY, '198.51.100.70')).statusCode).toBe(429);
    expect((await ask(server, READY, '198.51.100.71')).statusCode).toBe(200);
  });
});
