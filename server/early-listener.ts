import http from 'node:http';
import { createReadiness, livenessReport, readinessReport } from './readiness';

/** How long a client is told to wait before asking a starting process again. */
const RETRY_AFTER_SECONDS = 1;
const STARTING = 'Launchpad is starting: try again in a moment';

/**
 * The server's port, open from the process's first moments: while the database opens and the
 * app is built, liveness (`GET /healthCheck/api`) answers as it will after, readiness
 * (`/healthCheck/ready`) answers 503 with every stage pending, and anything else 503 with
 * Retry-After (a browser gets a page that asks again by itself). An orchestrator sees a live
 * process at once and sends it traffic when it is ready; a client never meets a refused
 * connection between the two. Once built, the app answers on the same server (Fastify's
 * `serverFactory`): nothing closes and reopens the port.
 */
export interface EarlyListener {
  readonly server: http.Server;
  /** For Fastify's options: the app's handler is kept until `handOver`. */
  serverFactory(handler: http.RequestListener): http.Server;
  /** The app is ready: from now on it answers, keeping connections alive as Fastify would. */
  handOver(options: { keepAliveTimeout?: number }): void;
  /**
   * Stops accepting, closes idle connections and resolves once the last one has ended (Fastify
   * closes only a server it started listening itself).
   */
  close(): Promise<void>;
}

export interface EarlyListenerOptions {
  port: number;
  host: string;
  /** The console's base path, with its trailing slash (`/` or `/launchpad/`). */
  basePath: string;
  version: string;
}

export function listenEarly(options: EarlyListenerOptions): Promise<EarlyListener> {
  const api = `${options.basePath}api/v1`;
  const starting = startingAnswers(api, options.version);
  const server = http.createServer(starting);
  let app: http.RequestListener | undefined;
  const listener: EarlyListener = {
    server,
    serverFactory(handler) {
      app = handler;
      return server;
    },
    handOver({ keepAliveTimeout }) {
      if (!app) throw new Error('the app was not built on this listener');
      if (keepAliveTimeout !== undefined) server.keepAliveTimeout = keepAliveTimeout;
      server.off('request', starting);
      server.on('request', app);
    },
    close: () =>
      new Promise((resolve) => {
        // Not listening (a start that failed) is closed already.
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: options.port, host: options.host }, () => {
      server.off('error', reject);
      resolve(listener);
    });
  });
}

/** What a browser gets meanwhile: the console's background and type, and a reload each second. */
const STARTING_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="refresh" content="${RETRY_AFTER_SECONDS}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Launchpad</title>
<style>
body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #f8f9fa;
  color: #212529; font: 16px/1.55 -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, sans-serif; }
main { padding: 24px; text-align: center; }
h1 { margin: 0 0 4px; font-size: 20px; }
p { margin: 0; color: #495057; }
</style></head>
<body><main><h1>Launchpad is starting</h1><p>This page reloads by itself in a moment.</p></main></body></html>
`;

/** The answers of a process that is starting. */
function startingAnswers(api: string, version: string): http.RequestListener {
  const json = (res: http.ServerResponse, status: number, body: object) => {
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      ...(status === 503 && { 'retry-after': String(RETRY_AFTER_SECONDS) }),
    });
    res.end(JSON.stringify(body));
  };
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0]!.replace(/\/+$/, '');
    if (path === `${api}/healthCheck/api`) {
      json(res, 200, livenessReport(version));
    } else if (path === `${api}/healthCheck/ready`) {
      // Nothing of the start is done yet, and no database is open to ask.
      json(res, 503, readinessReport(createReadiness().state, 'unavailable').body);
    } else if (path.startsWith(api) || !req.headers.accept?.includes('text/html')) {
      json(res, 503, { message: STARTING });
    } else {
      res.writeHead(503, {
        'content-type': 'text/html; charset=utf-8',
        // Nothing but its own inline style: no script, no request of any kind.
        'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
        'cache-control': 'no-store',
        'retry-after': String(RETRY_AFTER_SECONDS),
      });
      res.end(STARTING_PAGE);
    }
  };
}
