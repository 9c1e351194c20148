import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What the process holds open at a scrape, read from whoever holds it. */
export interface MetricSources {
  eventStreams?: () => number;
  consoles?: () => number;
  database?: () => DatabaseFigures;
  /** The operations table, read at each scrape (every process sees the whole queue). */
  operationQueue?: () => Promise<OperationQueueFigures>;
}

export interface DatabaseFigures {
  kind: 'postgres' | 'pglite';
  /** node-postgres's pool (transactions, cursors); absent on the embedded PGlite. */
  pool?: { total: number; idle: number; waiting: number; max: number };
  /** Statements (PGlite: statements and transactions) sent and not answered yet. */
  pending: number;
}

export interface OperationQueueFigures {
  pending: number;
  running: number;
  /** Seconds the oldest due operation that no worker holds has waited; 0 when none waits. */
  lagSeconds: number;
}

/** How a driver call ended: the engine's refusal and its absence are told apart. */
export type DriverOutcome = 'ok' | 'rejected' | 'unavailable' | 'error';

const latencyBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const operationBuckets = [1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 900];

/**
 * The process's Prometheus metrics, in a registry of its own (tests build many apps in one
 * process; the global registry would mix them). Labels take only bounded values: route patterns,
 * operation kinds, driver kinds and calls, status codes; never an id or a raw URL.
 */
export function createMetrics(options: { processMetrics?: boolean } = {}) {
  const registry = new Registry();
  const registers = [registry];
  const sources: MetricSources = {};
  // The process's own figures (CPU, memory, event-loop lag, GC, handles) start monitors that
  // live as long as the process: only the server's own registry gets them, not each test app's.
  if (options.processMetrics) collectDefaultMetrics({ register: registry });

  const metrics = {
    registry,
    httpRequests: new Counter({
      name: 'launchpad_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status code',
      labelNames: ['method', 'route', 'status'] as const,
      registers,
    }),
    httpDuration: new Histogram({
      name: 'launchpad_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method, route pattern and status class (event streams and websockets left out)',
      labelNames: ['method', 'route', 'status_class'] as const,
      buckets: latencyBuckets,
      registers,
    }),
    operations: new Counter({
      name: 'launchpad_operations_total',
      help: 'Operations the reconciler ended, by kind and outcome',
      labelNames: ['kind', 'outcome'] as const,
      registers,
    }),
    operationDuration: new Histogram({
      name: 'launchpad_operation_duration_seconds',
      help: 'Time from an operation being asked for to its end, by kind and outcome',
      labelNames: ['kind', 'outcome'] as const,
      buckets: operationBuckets,
      registers,
    }),
    operationRetries: new Counter({
      name: 'launchpad_operation_retries_total',
      help: 'Operation steps put off because the engine could not be reached, by kind',
      labelNames: ['kind'] as const,
      registers,
    }),
    driverCalls: new Counter({
      name: 'launchpad_driver_calls_total',
      help: 'Calls to the provider drivers, by driver, call and outcome',
      labelNames: ['driver', 'call', 'outcome'] as const,
      registers,
    }),
    driverDuration: new Histogram({
      name: 'launchpad_driver_call_duration_seconds',
      help: 'Time a provider driver call took, by driver and call',
      labelNames: ['driver', 'call'] as const,
      buckets: latencyBuckets,
      registers,
    }),
    /** Hands in the readers of what is open; each gauge reads its own at every scrape. */
    track(more: MetricSources) {
      Object.assign(sources, more);
    },
  };

  new Gauge({
    name: 'launchpad_event_streams_open',
    help: 'Live event streams (Server-Sent Events) this process holds open',
    registers,
    collect() {
      this.set(sources.eventStreams?.() ?? 0);
    },
  });
  new Gauge({
    name: 'launchpad_consoles_open',
    help: 'Guest consoles (websockets) this process holds open',
    registers,
    collect() {
      this.set(sources.consoles?.() ?? 0);
    },
  });
  registerDatabaseGauges(registry, sources);
  registerQueueGauges(registry, sources);
  return metrics;
}

export type Metrics = ReturnType<typeof createMetrics>;

function registerDatabaseGauges(registry: Registry, sources: MetricSources) {
  const registers = [registry];
  // Labelled by the database's kind, so that a pool's figures are absent on PGlite, not 0.
  const labelNames = ['database'] as const;
  const pool = () => {
    const figures = sources.database?.();
    return figures?.pool && { database: figures.kind, ...figures.pool };
  };
  new Gauge({
    name: 'launchpad_db_pool_connections',
    help: 'PostgreSQL pool connections (used by transactions), by state; absent on PGlite',
    labelNames: ['database', 'state'] as const,
    registers,
    collect() {
      const figures = pool();
      this.reset();
      if (!figures) return;
      const { database } = figures;
      this.set({ database, state: 'idle' }, figures.idle);
      this.set({ database, state: 'in_use' }, figures.total - figures.idle);
    },
  });
  new Gauge({
    name: 'launchpad_db_pool_max_connections',
    help: 'The PostgreSQL pool size (DATABASE_POOL_SIZE); absent on PGlite',
    labelNames,
    registers,
    collect() {
      const figures = pool();
      this.reset();
      if (figures) this.set({ database: figures.database }, figures.max);
    },
  });
  new Gauge({
    name: 'launchpad_db_pool_waiting_clients',
    help: 'Transactions waiting for a PostgreSQL pool connection; absent on PGlite',
    labelNames,
    registers,
    collect() {
      const figures = pool();
      this.reset();
      if (figures) this.set({ database: figures.database }, figures.waiting);
    },
  });
  new Gauge({
    name: 'launchpad_db_statements_pending',
    help: 'Statements sent to the database and not answered yet (PGlite: statements and transactions queued on or running in its one connection)',
    labelNames,
    registers,
    collect() {
      const figures = sources.database?.();
      this.reset();
      if (figures) this.set({ database: figures.kind }, figures.pending);
    },
  });
}

function registerQueueGauges(registry: Registry, sources: MetricSources) {
  const registers = [registry];
  // One read serves both gauges of a scrape (their collects run together). A database that does
  // not answer leaves them out rather than failing the whole scrape.
  let reading: Promise<OperationQueueFigures | undefined> | undefined;
  const read = () =>
    (reading ??= (sources.operationQueue?.() ?? Promise.resolve(undefined))
      .catch(() => undefined)
      .finally(() => {
        reading = undefined;
      }));
  new Gauge({
    name: 'launchpad_operations_queue_depth',
    help: 'Operations not ended yet, in the whole database, by status (pending: not started or waiting for its next step; running: held by a worker)',
    labelNames: ['status'] as const,
    registers,
    async collect() {
      const figures = await read();
      this.reset();
      if (!figures) return;
      this.set({ status: 'pending' }, figures.pending);
      this.set({ status: 'running' }, figures.running);
    },
  });
  new Gauge({
    name: 'launchpad_operations_queue_lag_seconds',
    help: 'How long the oldest operation due now has waited for a worker to take it; 0 when none waits',
    registers,
    async collect() {
      const figures = await read();
      this.reset();
      if (figures) this.set(figures.lagSeconds);
    },
  });
}
