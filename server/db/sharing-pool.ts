import pg from 'pg';

/**
 * A connection in pipeline mode that many callers share. Each statement is sent as it comes, those
 * of one turn of the event loop in one write, and PostgreSQL answers them in order, each in a
 * transaction of its own: a failed statement fails alone. A lost connection fails the statements it
 * had been sent, and the next statement opens a new one.
 */
class SharedConnection {
  #client: pg.Client | undefined;
  #corked = false;
  /** Statements sent and not answered yet. */
  pending = 0;

  constructor(private readonly open: () => pg.Client) {}

  query(config: unknown, values: unknown): Promise<pg.QueryResult> {
    const client = this.#client ?? this.#connect();
    this.#writeAtEndOfTurn(client);
    const sent = (client.query as (config: unknown, values: unknown) => Promise<pg.QueryResult>)(
      config,
      values,
    );
    this.pending += 1;
    const answered = () => {
      this.pending -= 1;
    };
    sent.then(answered, answered);
    return sent;
  }

  async end() {
    const client = this.#client;
    this.#client = undefined;
    await client?.end();
  }

  #connect() {
    const client = this.open();
    const lost = () => {
      if (this.#client === client) this.#client = undefined;
    };
    client.on('error', lost);
    client.on('end', lost);
    // A connection that cannot be made fails the statements waiting for it.
    client.connect().catch(lost);
    this.#client = client;
    return client;
  }

  #writeAtEndOfTurn(client: pg.Client) {
    if (this.#corked) return;
    const { stream } = client.connection;
    stream.cork();
    this.#corked = true;
    setImmediate(() => {
      this.#corked = false;
      stream.uncork();
    });
  }
}

/**
 * node-postgres's pool, whose statements outside a transaction (`pool.query`, as Drizzle sends
 * them) go to a few connections shared in pipeline mode, to the one with the fewest unanswered:
 * a busy server sends many requests' statements in one write and PostgreSQL works through them
 * without waiting for a round trip between each, where an exclusive connection a statement would
 * cost a write, a wake-up and a wait. A transaction (`pool.connect`) still has a connection of its
 * own from the pool. A statement waits behind those sent before it on its connection, so a long
 * one delays the few queued behind it; new ones go to a connection with fewer.
 */
export class SharingPool extends pg.Pool {
  readonly #shared: SharedConnection[];

  constructor(config: pg.PoolConfig, shared: { connections: number; open: () => pg.Client }) {
    super(config);
    this.#shared = Array.from(
      { length: Math.max(1, shared.connections) },
      () => new SharedConnection(shared.open),
    );
    const ownConnection = this.query.bind(this) as (...args: unknown[]) => unknown;
    this.query = ((...args: unknown[]) => {
      const [config, values] = args;
      // A callback, or a query object that reads its rows a page at a time (a cursor, a stream),
      // takes a connection of its own as before: pipeline mode cannot serve the latter.
      // After `end()`, the pool's own refusal.
      const shareable =
        !this.ending &&
        !args.some((arg) => typeof arg === 'function') &&
        !(typeof config === 'object' && config !== null && 'submit' in config);
      return shareable ? this.#leastBusy().query(config, values) : ownConnection(...args);
    }) as typeof this.query;
  }

  /** Statements sent on the shared connections and not answered yet. */
  get pending(): number {
    return this.#shared.reduce((sum, connection) => sum + connection.pending, 0);
  }

  #leastBusy(): SharedConnection {
    let least = this.#shared[0]!;
    for (const connection of this.#shared)
      if (connection.pending < least.pending) least = connection;
    return least;
  }

  override async end() {
    await Promise.all(this.#shared.map((connection) => connection.end()));
    await super.end();
  }
}
