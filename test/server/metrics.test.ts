import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openEventStream } from './support/event-stream';
import { startTestServer, type TestServer } from './support/harness';
import { signIn } from './support/sign-in';
import { startVmWorld, type VmWorld } from './support/vm-world';
import { sample } from './support/metric-sample';

/**
 * /metrics as an operator's Prometheus scrapes it: behind its token, and what the answers,
 * operations, driver calls, streams and the database show there after the product did something.
 */

const METRICS_TOKEN = 'metrics-token-0123456789abcdefghijkl';
let w: VmWorld;
let baseUrl: string;

beforeAll(async () => {
  w = await startVmWorld({ env: { METRICS_TOKEN }, processMetrics: true });
  await w.server.app.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${(w.server.app.server.address() as AddressInfo).port}`;
}, 60_000);
afterAll(() => w?.close());
beforeEach(() => w.server.sim.faults.clear());

async function scrape(server: TestServer = w.server) {
  const res = await server.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  expect(res.statusCode).toBe(200);
  return res.body;
}

describe('who may read /metrics', () => {
  it('answers 401 without the token or with a wrong one, and the figures with it', async () => {
    const url = '/metrics';
    const none = await w.server.app.inject({ method: 'GET', url });
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(none.body).not.toContain('launchpad_');
    const wrong = await w.server.app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${METRICS_TOKEN.replace('0', '1')}` },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).not.toContain('launchpad_');

    const right = await w.server.app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(right.statusCode).toBe(200);
    expect(right.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(right.body).toContain('# TYPE launchpad_http_requests_total counter');
    // The process's own figures.
    expect(sample(right.body, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(sample(right.body, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
  });

  it('is not there at all on a server without the token or a port of its own', async () => {
    const server = await startTestServer();
    try {
      const res = await server.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('launchpad_');
    } finally {
      await server.close();
    }
  });

  it('is served on METRICS_PORT alone when it is set, and nothing else is served there', async () => {
    const server = await startTestServer({ METRICS_PORT: '0' });
    try {
      const port = server.app.metrics.listenerPort;
      expect(port).toBeGreaterThan(0);
      await server.app.inject({ method: 'GET', url: '/api/v1/healthCheck/api' });
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(
        sample(text, 'launchpad_http_requests_total', { route: '/api/v1/healthCheck/api' }),
      ).toBeGreaterThanOrEqual(1);
      expect((await fetch(`http://127.0.0.1:${port}/api/v1/healthCheck/api`)).status).toBe(404);
      // The public port still refuses it: no token is set.
      const main = await server.app.inject({ method: 'GET', url: '/metrics' });
      expect(main.statusCode).toBe(404);
    } finally {
      await server.close();
    }
    // Closed with the app.
    await expect(
      fetch(`http://127.0.0.1:${server.app.metrics.listenerPort}/metrics`),
    ).rejects.toThrow();
  });
});

describe('what the figures show', () => {
  it('counts answers by route pattern and status, never by the URL that was asked', async () => {
    const id = await w.runningVm('counted');
    const before = await scrape();
    const labels = { method: 'GET', route: '/api/v1/virtualMachines/details/:id', status: '200' };
    const was = sample(before, 'launchpad_http_requests_total', labels) ?? 0;
    expect((await w.call('viewer', 'GET', `/virtualMachines/details/${id}`)).status).toBe(200);
    expect((await w.call('viewer', 'GET', '/virtualMachines/details/987654321')).status).toBe(404);

    const after = await scrape();
    expect(sample(after, 'launchpad_http_requests_total', labels)).toBe(was + 1);
    expect(
      sample(after, 'launchpad_http_requests_total', { ...labels, status: '404' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(after, 'launchpad_http_request_duration_seconds_count', {
        method: 'GET',
        route: labels.route,
        status_class: '2xx',
      }),
    ).toBeGreaterThanOrEqual(was + 1);
    // No route label names an id or a path nobody routed.
    const routes = [...after.matchAll(/route="([^"]*)"/g)].map((m) => m[1]!);
    expect(routes.filter((route) => /\/\d+(\/|$)/.test(route))).toEqual([]);

    await w.server.app.inject({ method: 'GET', url: `/no/such/page/${id}` });
    const unmatched = await scrape();
    expect(
      sample(unmatched, 'launchpad_http_requests_total', { route: 'unmatched', status: '404' }),
    ).toBeGreaterThanOrEqual(1);
    expect(unmatched).not.toContain('/no/such');
  });

  it("counts the console's built files as one route, under BASE_PATH", async () => {
    const dist = mkdtempSync(path.join(tmpdir(), 'launchpad-metrics-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Launchpad</title>');
    writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log("app")');
    writeFileSync(path.join(dist, 'assets', 'login-def456.js'), 'console.log("login")');
    const server = await startTestServer(
      { BASE_PATH: '/console/', METRICS_TOKEN },
      { consoleDir: dist },
    );
    try {
      for (const file of ['index-abc123.js', 'login-def456.js']) {
        const res = await server.app.inject({ method: 'GET', url: `/console/assets/${file}` });
        expect(res.statusCode).toBe(200);
      }
      expect(
        (await server.app.inject({ method: 'GET', url: '/console/virtualMachines' })).statusCode,
      ).toBe(200);
      const res = await server.app.inject({
        method: 'GET',
        url: '/console/metrics',
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      expect(res.statusCode).toBe(200);
      const assets = { method: 'GET', route: '/console/assets/*', status: '200' };
      expect(sample(res.body, 'launchpad_http_requests_total', assets)).toBe(2);
      // A deep link is the console's page, from the not-found handler.
      expect(
        sample(res.body, 'launchpad_http_requests_total', { route: 'unmatched', status: '200' }),
      ).toBe(1);
      expect(res.body).not.toMatch(/abc123|def456|virtualMachines"/);
    } finally {
      await server.close();
      rmSync(dist, { recursive: true, force: true });
    }
  });

  it('counts an operation by kind and outcome once it ends, and shows the queue meanwhile', async () => {
    const id = await w.runningVm('operated');
    const ended = { kind: 'vm.stop', outcome: 'succeeded' };
    const was = sample(await scrape(), 'launchpad_operations_total', ended) ?? 0;

    expect((await w.call('operator', 'POST', `/virtualMachines/stop/${id}`)).status).toBe(200);
    w.server.clock.advance(5_000);
    const queued = await scrape();
    expect(sample(queued, 'launchpad_operations_queue_depth', { status: 'pending' })).toBe(1);
    expect(sample(queued, 'launchpad_operations_queue_depth', { status: 'running' })).toBe(0);
    // Nobody has taken it for the 5 s the clock moved.
    expect(sample(queued, 'launchpad_operations_queue_lag_seconds')).toBe(5);

    await w.server.finishOperations();
    const done = await scrape();
    expect(sample(done, 'launchpad_operations_total', ended)).toBe(was + 1);
    expect(sample(done, 'launchpad_operation_duration_seconds_count', ended)).toBe(was + 1);
    expect(sample(done, 'launchpad_operations_queue_depth', { status: 'pending' })).toBe(0);
    expect(sample(done, 'launchpad_operations_queue_lag_seconds')).toBe(0);
  });

  it('counts driver calls by driver, call and outcome, with their time', async () => {
    const id = await w.runningVm('driven');
    const call = (outcome: string) => ({ driver: 'sim', call: 'stopServer', outcome });
    const before = await scrape();
    const wasOk = sample(before, 'launchpad_driver_calls_total', call('ok')) ?? 0;
    const wasDown = sample(before, 'launchpad_driver_calls_total', call('unavailable')) ?? 0;
    const wasRetried = sample(before, 'launchpad_operation_retries_total', { kind: 'vm.stop' });

    w.server.sim.faults.inject({ kind: 'unavailable', action: 'stop', times: 1 });
    await w.call('operator', 'POST', `/virtualMachines/stop/${id}`);
    await w.server.finishOperations(600);

    const after = await scrape();
    expect(sample(after, 'launchpad_driver_calls_total', call('unavailable'))).toBe(wasDown + 1);
    expect(sample(after, 'launchpad_driver_calls_total', call('ok'))).toBe(wasOk + 1);
    expect(sample(after, 'launchpad_operation_retries_total', { kind: 'vm.stop' })).toBe(
      (wasRetried ?? 0) + 1,
    );
    expect(
      sample(after, 'launchpad_driver_call_duration_seconds_count', {
        driver: 'sim',
        call: 'stopServer',
      }),
    ).toBe(wasOk + wasDown + 2);
    expect(
      sample(after, 'launchpad_driver_calls_total', {
        driver: 'sim',
        call: 'getServer',
        outcome: 'ok',
      }),
    ).toBeGreaterThan(0);
  });

  it('shows the open event streams going up and down', async () => {
    let text = await scrape();
    const open = () => sample(text, 'launchpad_event_streams_open');
    expect(open()).toBe(0);
    const { token } = await signIn(w.server, 'viewer@a.test');
    const stream = await openEventStream(baseUrl, token);
    try {
      expect(stream.status).toBe(200);
      text = await scrape();
      expect(open()).toBe(1);
    } finally {
      stream.close();
    }
    for (let tries = 0; tries < 100 && open() !== 0; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      text = await scrape();
    }
    expect(open()).toBe(0);
    expect(sample(text, 'launchpad_consoles_open')).toBe(0);
    // The stream's lifetime is no answer's latency: it is counted, not timed.
    expect(
      sample(text, 'launchpad_http_requests_total', { route: '/api/v1/events', status: '200' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'launchpad_http_request_duration_seconds_count', {
        route: '/api/v1/events',
      }),
    ).toBeUndefined();
  });

  it("shows the database's load", async () => {
    const text = await scrape();
    const database = w.server.databaseUrl ? 'postgres' : 'pglite';
    expect(sample(text, 'launchpad_db_statements_pending', { database })).toBeGreaterThanOrEqual(0);
    if (w.server.databaseUrl) {
      expect(sample(text, 'launchpad_db_pool_max_connections', { database })).toBeGreaterThan(0);
      expect(
        sample(text, 'launchpad_db_pool_connections', { state: 'idle' }),
      ).toBeGreaterThanOrEqual(0);
    } else {
      expect(sample(text, 'launchpad_db_pool_max_connections')).toBeUndefined();
    }
  });

  it('are each documented, and the dashboard asks for none that does not exist', async () => {
    const text = await scrape();
    const served = new Set([...text.matchAll(/^# TYPE (\S+) (\w+)$/gm)].map((m) => m[1]!));
    const docs = path.resolve(import.meta.dirname, '../../docs/operations');
    const page = readFileSync(path.join(docs, 'metrics.md'), 'utf8');
    const ours = [...served].filter((name) => name.startsWith('launchpad_'));
    expect(ours.length).toBeGreaterThan(10);
    expect(ours.filter((name) => !page.includes(`\`${name}\``))).toEqual([]);

    const dashboard = readFileSync(path.join(docs, 'grafana-dashboard.json'), 'utf8');
    const asked = new Set(
      [...dashboard.matchAll(/\b((?:launchpad|process|nodejs)_\w+)/g)].map((m) =>
        m[1]!.replace(/_(bucket|sum|count)$/, ''),
      ),
    );
    expect([...asked].filter((name) => !served.has(name))).toEqual([]);
  });
});
