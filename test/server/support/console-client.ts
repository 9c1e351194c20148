import WebSocket from 'ws';
import { SESSION_COOKIE } from '../../../server/plugins/session-cookie';
import type { TestServer } from './harness';
import { bearer } from './sign-in';

/** PUBLIC_URL's origin in the test servers: the console's own pages. */
export const CONSOLE_ORIGIN = 'http://console.test';

/** The console address GET /virtualMachines/getConsole answers the session. */
export async function consoleUrlFor(server: TestServer, token: string, vmId: number) {
  const res = await server.app.inject({
    method: 'GET',
    url: `/api/v1/virtualMachines/getConsole/${vmId}`,
    headers: bearer(token),
  });
  if (res.statusCode !== 200) throw new Error(`getConsole: ${res.statusCode} ${res.body}`);
  return (res.json() as { data: { consoleUrl: string } }).data.consoleUrl;
}

/** The test server's `ws://` address: it starts listening on 127.0.0.1 the first time. */
async function addressOf(server: TestServer) {
  if (!server.app.server.listening) await server.app.listen({ port: 0, host: '127.0.0.1' });
  const address = server.app.server.address();
  return `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

export interface OpenConsole {
  socket: WebSocket;
  /** Everything the engine sent so far, as text. */
  text(): string;
  /** Resolves once `text()` contains `fragment`. */
  waitFor(fragment: string): Promise<void>;
  /** How the server closed it. */
  closed: Promise<{ code: number; reason: string }>;
  send(data: string | Buffer): void;
}

/**
 * Opens a console's websocket as the browser of a session would (its cookie, the console's
 * Origin); answers the open console, or the HTTP status its upgrade was refused with.
 */
export async function openConsole(
  server: TestServer,
  url: string,
  options: ConsoleSocketOptions = {},
): Promise<OpenConsole | number> {
  return openConsoleAt(await addressOf(server), url, options);
}

export interface ConsoleSocketOptions {
  /** The session's token, sent as its cookie. */
  token?: string;
  /** The page's origin; null: none sent. PUBLIC_URL's origin of the test servers by default. */
  origin?: string | null;
  headers?: Record<string, string>;
}

/** As `openConsole`, on the server at `base` (`ws://host:port`). */
export async function openConsoleAt(
  base: string,
  url: string,
  options: ConsoleSocketOptions = {},
): Promise<OpenConsole | number> {
  const origin = options.origin === undefined ? CONSOLE_ORIGIN : options.origin;
  const headers: Record<string, string> = {
    ...(options.token ? { cookie: `${SESSION_COOKIE}=${options.token}` } : {}),
    ...(origin === null ? {} : { origin }),
    ...options.headers,
  };
  const chunks: Buffer[] = [];
  const waiters: (() => void)[] = [];
  const socket = new WebSocket(`${base}${url}/websockify`, { headers });
  socket.on('message', (data: Buffer) => {
    chunks.push(data);
    for (const wake of waiters.splice(0)) wake();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  const refused = await new Promise<number | undefined>((resolve, reject) => {
    socket.once('open', () => resolve(undefined));
    socket.once('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      response.resume();
    });
    socket.once('error', reject);
  });
  if (refused !== undefined) return refused;
  const text = () => Buffer.concat(chunks).toString();
  return {
    socket,
    text,
    async waitFor(fragment) {
      while (!text().includes(fragment)) {
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    closed,
    send: (data) => socket.send(data),
  };
}

/** The open console, failing the test when the upgrade was refused. */
export async function openedConsole(...args: Parameters<typeof openConsole>) {
  const opened = await openConsole(...args);
  if (typeof opened === 'number') throw new Error(`the console was refused: ${opened}`);
  return opened;
}
