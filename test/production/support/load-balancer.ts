import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A round-robin HTTP load balancer on 127.0.0.1, as an operator puts in front of several
 * Launchpad processes: it polls each backend's readiness check and sends requests only to those
 * that answer 200; a backend that refuses the connection is out until it is ready again, and the
 * request goes to the next one, since nothing of it was sent. A request whose backend fails
 * after it was sent is not sent again (it may have been carried out): the client gets a 502.
 * Connections to the backends are kept alive and reused, so a backend must say when to close them.
 */
export interface LoadBalancer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** A backend (`http://host:port`); it gets requests once its readiness check answers 200. */
  add(backend: string): void;
  remove(backend: string): void;
  /** The backends that get requests now. */
  ready(): string[];
  /** Requests that were sent to another backend after one refused the connection. */
  readonly retried: number;
  /** What the balancer could not pass on, and why (each answered 502 or 503). */
  readonly failures: string[];
  close(): Promise<void>;
}

interface Backend {
  url: URL;
  ready: boolean;
  agent: http.Agent;
}

// Hop-by-hop: they describe one connection, not the request or the answer.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade']);
const endToEnd = (headers: http.IncomingHttpHeaders) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));

export async function startLoadBalancer(options: {
  /** The readiness check's path on each backend. */
  readinessPath: string;
  /** How often each backend is asked (a second or two in real balancers). */
  pollMs?: number;
}): Promise<LoadBalancer> {
  const pollMs = options.pollMs ?? 500;
  const backends: Backend[] = [];
  const failures: string[] = [];
  let retried = 0;
  let turn = 0;

  async function poll(backend: Backend) {
    try {
      const res = await fetch(new URL(options.readinessPath, backend.url), {
        signal: AbortSignal.timeout(Math.max(pollMs, 1_000)),
      });
      await res.arrayBuffer();
      backend.ready = res.status === 200;
    } catch {
      backend.ready = false;
    }
  }
  let polling = false;
  const poller = setInterval(() => {
    if (polling) return;
    polling = true;
    void Promise.all(backends.map(poll)).finally(() => (polling = false));
  }, pollMs);

  function forward(
    request: http.IncomingMessage,
    response: http.ServerResponse,
    body: Buffer,
    tried: Set<Backend>,
  ) {
    const candidates = backends.filter((b) => b.ready && !tried.has(b));
    if (candidates.length === 0) {
      failures.push(`${request.method} ${request.url}: no backend ready`);
      response.writeHead(503).end('No backend is ready');
      return;
    }
    const backend = candidates[turn++ % candidates.length]!;
    tried.add(backend);
    const upstream = http.request(new URL(request.url!, backend.url), {
      method: request.method,
      agent: backend.agent,
      headers: {
        ...endToEnd(request.headers),
        host: backend.url.host,
        'x-forwarded-for': request.socket.remoteAddress ?? '127.0.0.1',
      },
    });
    let answered = false;
    upstream.on('response', (answer) => {
      answered = true;
      response.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
      answer.pipe(response);
      answer.on('error', () => response.destroy());
      // The client went away (an event stream it closed): so does the backend's answer.
      response.on('close', () => answer.destroy());
    });
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (answered) return;
      if (error.code === 'ECONNREFUSED') {
        // Not sent: out of rotation until its check answers again, and to the next backend.
        backend.ready = false;
        retried += 1;
        forward(request, response, body, tried);
        return;
      }
      failures.push(`${request.method} ${request.url} to ${backend.url.host}: ${error.code}`);
      response.writeHead(502).end('The backend failed');
    });
    upstream.end(body);
  }

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => forward(request, response, Buffer.concat(chunks), new Set()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    add(url) {
      const backend = {
        url: new URL(url),
        ready: false,
        agent: new http.Agent({ keepAlive: true }),
      };
      backends.push(backend);
      void poll(backend);
    },
    remove(url) {
      const at = backends.findIndex((b) => b.url.href === new URL(url).href);
      if (at >= 0) backends.splice(at, 1)[0]!.agent.destroy();
    },
    ready: () => backends.filter((b) => b.ready).map((b) => b.url.origin),
    get retried() {
      return retried;
    },
    failures,
    async close() {
      clearInterval(poller);
      for (const backend of backends) backend.agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
