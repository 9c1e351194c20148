import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('health checks', () => {
  it('answers the API check without authentication', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/v1/healthCheck/api' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { status: 'ok' }, message: 'API is healthy' });
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
});
