import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { listenEarly, type EarlyListener } from '../../server/early-listener';
import { version } from '../../server/version';
import { startTestServer, type TestServer } from './support/harness';

/**
 * The server's port opens before the database and the app (main.ts): what a client sees while
 * the process starts, and that the app then answers on the same port, connections kept.
 */

let listener: EarlyListener | undefined;
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  await listener?.close();
  server = listener = undefined;
});

/** One connection kept alive for every request of a test, as a load balancer keeps its own. */
function client(port: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = (path: string, headers: http.OutgoingHttpHeaders = {}) =>
    new Promise<{
      status: number;
      headers: http.IncomingHttpHeaders;
      body: string;
      reused: boolean;
    }>((resolve, reject) => {
      const req = http.get({ host: '127.0.0.1', port, path, agent, headers }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            body,
            reused: req.reusedSocket,
          }),
        );
      });
      req.on('error', reject);
    });
  return { get, close: () => agent.destroy() };
}

const json = (body: string) => JSON.parse(body) as unknown;

describe('a starting process', () => {
  it('answers liveness, says it is not ready, and asks everything else to come back', async () => {
    listener = await listenEarly({ port: 0, host: '127.0.0.1', basePath: '/', version });
    const http1 = client((listener.server.address() as AddressInfo).port);

    const live = await http1.get('/api/v1/healthCheck/api');
    expect(live.status).toBe(200);
    expect(json(live.body)).toEqual({ data: { status: 'ok', version }, message: 'API is healthy' });

    const ready = await http1.get('/api/v1/healthCheck/ready');
    expect(ready.status).toBe(503);
    expect(json(ready.body)).toMatchObject({
      data: { status: 'unavailable', checks: { migrations: 'pending', process: 'ok' } },
    });

    const call = await http1.get('/api/v1/virtualMachines/list');
    expect(call.status).toBe(503);
    expect(call.headers['retry-after']).toBe('1');
    expect(json(call.body)).toEqual({ message: 'Launchpad is starting: try again in a moment' });

    // A browser gets a page that asks again by itself.
    const page = await http1.get('/virtualMachines', { accept: 'text/html,*/*' });
    expect(page.status).toBe(503);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<meta http-equiv="refresh" content="1">');
    expect(page.body).toContain('<h1>Launchpad is starting</h1>');
    http1.close();
  });

  it('answers under its base path', async () => {
    listener = await listenEarly({ port: 0, host: '127.0.0.1', basePath: '/cloud/', version });
    const http1 = client((listener.server.address() as AddressInfo).port);
    expect((await http1.get('/cloud/api/v1/healthCheck/api')).status).toBe(200);
    expect((await http1.get('/api/v1/healthCheck/api')).status).toBe(503);
    http1.close();
  });

  it('hands its port to the app once built, on the connections already open', async () => {
    listener = await listenEarly({ port: 0, host: '127.0.0.1', basePath: '/', version });
    const http1 = client((listener.server.address() as AddressInfo).port);
    expect((await http1.get('/api/v1/virtualMachines/list')).status).toBe(503);

    server = await startTestServer({}, { listener });
    // Built and ready, not yet handed over: the start is not over.
    expect((await http1.get('/api/v1/virtualMachines/list')).status).toBe(503);
    listener.handOver(server.app.initialConfig);

    const list = await http1.get('/api/v1/virtualMachines/list');
    expect(list.status).toBe(401);
    expect(list.reused).toBe(true);
    const ready = await http1.get('/api/v1/healthCheck/ready');
    expect(ready.status).toBe(200);
    expect(listener.server.keepAliveTimeout).toBe(server.app.initialConfig.keepAliveTimeout);
    http1.close();
  });

  it("closes with the app: the port stops accepting once the app's close resolves", async () => {
    listener = await listenEarly({ port: 0, host: '127.0.0.1', basePath: '/', version });
    const { port } = listener.server.address() as AddressInfo;
    server = await startTestServer({}, { listener });
    listener.handOver(server.app.initialConfig);
    const http1 = client(port);
    expect((await http1.get('/api/v1/healthCheck/api')).status).toBe(200);

    await server.app.close();
    expect(listener.server.listening).toBe(false);
    await expect(fetch(`http://127.0.0.1:${port}/api/v1/healthCheck/api`)).rejects.toThrow();
    http1.close();
    server = undefined;
  });
});
