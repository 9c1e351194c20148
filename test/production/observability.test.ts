import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase, dropDatabase } from './support/database';
import { freePort, startServerProcess, type ServerProcess } from './support/server-process';
import { sample } from '../server/support/metric-sample';

/**
 * What an operator's monitoring sees of the built server: Prometheus scraping /metrics on its own
 * port while a load runs, and an OTLP collector receiving the traces the OTEL_* variables ask for.
 */

const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

async function started(env: Record<string, string>) {
  const server = await startServerProcess({ env });
  cleanup.push(() => server.stop());
  return server;
}

describe('metrics', () => {
  it('are scraped on METRICS_PORT while a load runs, and are not on the public port', async () => {
    const metricsPort = await freePort();
    const server = await started({ METRICS_PORT: String(metricsPort) });
    const scrapeUrl = `http://127.0.0.1:${metricsPort}/metrics`;

    // 300 requests, 10 at a time, with a scrape every 50 ms meanwhile.
    const total = 300;
    let sent = 0;
    const statuses: number[] = [];
    const client = async () => {
      while (sent < total) {
        sent += 1;
        statuses.push((await fetch(`${server.api}/teams/list`)).status);
      }
    };
    let loading = true;
    const scrapes: number[] = [];
    const scraper = (async () => {
      while (loading) {
        scrapes.push((await fetch(scrapeUrl)).status);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    await Promise.all(Array.from({ length: 10 }, client));
    loading = false;
    await scraper;
    expect(statuses).toEqual(Array.from({ length: total }, () => 401));
    expect(scrapes.length).toBeGreaterThan(0);
    expect(scrapes.every((status) => status === 200)).toBe(true);

    const text = await (await fetch(scrapeUrl)).text();
    const route = { method: 'GET', route: '/api/v1/teams/list' };
    expect(sample(text, 'launchpad_http_requests_total', { ...route, status: '401' })).toBe(total);
    expect(
      sample(text, 'launchpad_http_request_duration_seconds_count', {
        ...route,
        status_class: '4xx',
      }),
    ).toBe(total);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(sample(text, 'launchpad_db_statements_pending', { database: 'pglite' })).toBe(0);
    expect(sample(text, 'launchpad_driver_calls_total', { driver: 'sim', call: 'catalog' })).toBe(
      1,
    );

    // No METRICS_TOKEN: the public port has no /metrics.
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
  });
});

/** A stand-in OTLP/HTTP collector: keeps the body of every POST /v1/traces. */
async function collector() {
  const bodies: Buffer[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method === 'POST' && request.url === '/v1/traces') {
        bodies.push(Buffer.concat(chunks));
      }
      // An empty ExportTraceServiceResponse: all accepted.
      response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.push(() => new Promise((resolve) => server.close(resolve)));
  const received = () => Buffer.concat(bodies);
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Waits until what the collector received holds every one of `texts` (bounded). */
    async waitFor(...texts: string[]) {
      for (let attempt = 0; attempt < 100; attempt += 1) {
        const all = received();
        if (texts.every((text) => all.includes(text))) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const all = received();
      throw new Error(
        `the collector got ${bodies.length} exports without ${texts.filter((t) => !all.includes(t)).join(', ')}`,
      );
    },
  };
}

/** The standard variables, pointing at the collector; spans are sent 100 ms after they end. */
const tracingEnv = (endpoint: string) => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
  OTEL_BSP_SCHEDULE_DELAY: '100',
});

describe('traces', () => {
  it('reach the OTLP endpoint of the OTEL_* variables: a request, by its route', async () => {
    const otlp = await collector();
    const server: ServerProcess = await started(tracingEnv(otlp.endpoint));
    expect((await fetch(`${server.api}/teams/list`)).status).toBe(401);
    // OTLP over protobuf (the default): its strings are there as they are.
    await otlp.waitFor('launchpad', '/api/v1/teams/list', '@fastify/otel');
    // The product's own spans: the catalogue read from the sim engine at start.
    await otlp.waitFor('driver sim catalog');
  });

  it('are sent before the process exits on SIGTERM, not lost with the batch it held', async () => {
    const otlp = await collector();
    // A batch every minute: only the flush at exit can send the request's span in time.
    const server = await started({
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint,
      OTEL_BSP_SCHEDULE_DELAY: '60000',
      SHUTDOWN_DELAY_SECONDS: '0',
    });
    expect((await fetch(`${server.api}/teams/list`)).status).toBe(401);
    expect(await server.stop()).toBe(0);
    await otlp.waitFor('/api/v1/teams/list');
  });

  const adminUrl = process.env.PRODUCTION_DATABASE_URL;
  it.runIf(adminUrl)('on PostgreSQL, with the statements a request ran', async () => {
    const { name, url } = await createDatabase(adminUrl!, 'launchpad_traces');
    cleanup.push(() => dropDatabase(adminUrl!, name));
    const otlp = await collector();
    const server = await started({ ...tracingEnv(otlp.endpoint), DATABASE_URL: url });
    expect((await fetch(`${server.api}/healthCheck/database`)).status).toBe(200);
    await otlp.waitFor('/api/v1/healthCheck/database', 'postgresql', 'select 1');
  });
});
