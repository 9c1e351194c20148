import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSecretBox } from '../../../server/domain/secrets';
import {
  createWebhookDispatcher,
  type WebhookDispatcher,
} from '../../../server/domain/webhooks/dispatcher';
import { createMailer } from '../../../server/mail/transport';
import type { testClock } from './harness';
import { startTestServer, type TestServer } from './harness';
import { createCompany, createUser } from './seed';
import { bearer, signIn } from './sign-in';

type DispatcherOptions = Parameters<typeof createWebhookDispatcher>[0];

/**
 * A delivery worker on a test server's database, clock and outbox, driven by hand; private
 * addresses allowed (the receivers listen on 127.0.0.1) unless told otherwise.
 */
export function testWebhookDispatcher(
  server: TestServer,
  options: Partial<
    Pick<DispatcherOptions, 'allowPrivate' | 'workerId' | 'timeoutMs' | 'deliveryLogSize'>
  > = {},
): WebhookDispatcher {
  return createWebhookDispatcher({
    db: server.database.db,
    clock: server.clock,
    secrets: createSecretBox(server.config.appSecret),
    mailer: createMailer({
      smtpUrl: undefined,
      from: server.config.mailFrom,
      outboxDir: server.outboxDir,
      logger: { info: () => {} },
    }),
    allowPrivate: true,
    publicUrl: server.config.publicUrl,
    log: { warn: () => {}, error: () => {} },
    workerId: 'test-webhooks',
    ...options,
  });
}

export interface Received {
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A webhook receiver on 127.0.0.1: it keeps every request and answers each with the next status
 * queued for its path (200 once they are used up).
 */
export async function startReceiver() {
  const received: Received[] = [];
  const statuses = new Map<string, number[]>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.writeHead(statuses.get(request.url ?? '')?.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    /** The next answers to requests for the path, in order. */
    answer: (path: string, ...next: number[]) => statuses.set(path, next),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

export type Who = 'admin' | 'viewer' | 'otherAdmin';

export interface CallResult {
  status: number;
  body: { data: unknown; message: string; errors?: { field: string; message: string }[] };
}

/**
 * A company with an Admin and a non-Admin, another company's Admin, all signed in, and a delivery
 * worker driven by hand on the test clock.
 */
export async function startWebhookWorld(
  env: Record<string, string> = {},
  options: { clock?: ReturnType<typeof testClock> } = {},
) {
  const server: TestServer = await startTestServer(env, options);
  const db = server.database.db;
  const { company } = await createCompany(db, { resellerName: 'Hookly' });
  const { company: otherCompany } = await createCompany(db);
  const admin = await createUser(db, { companyId: company.id, isAdmin: true });
  const secondAdmin = await createUser(db, { companyId: company.id, isAdmin: true });
  const viewer = await createUser(db, { companyId: company.id });
  const otherAdmin = await createUser(db, { companyId: otherCompany.id, isAdmin: true });
  // Remember me: the sessions outlast the day of retries the tests move the clock through.
  const session = async (email: string) =>
    (await signIn(server, email, { rememberMe: true })).token;
  const tokens: Record<Who, string> = {
    admin: await session(admin.email),
    viewer: await session(viewer.email),
    otherAdmin: await session(otherAdmin.email),
  };

  async function call(who: Who, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) {
    const res = await server.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: bearer(tokens[who]),
      ...(payload ? { payload } : {}),
    });
    return { status: res.statusCode, body: res.json() } as CallResult;
  }

  const dispatcher: WebhookDispatcher = testWebhookDispatcher(server, {
    allowPrivate: server.config.webhookAllowPrivate,
    timeoutMs: 5_000,
  });

  /** A webhook of the company; answers its id and secret. */
  async function createWebhook(url: string, events: string[] = ['*']) {
    const res = await call('admin', 'POST', '/webhooks/create', { url, events });
    if (res.status !== 200) throw new Error(`create webhook failed: ${JSON.stringify(res)}`);
    const data = res.body.data as { webhook: { id: number }; secret: string };
    return { id: data.webhook.id, secret: data.secret };
  }

  /** A team created by the Admin: one `team.create` event of the company. */
  async function teamEvent(name: string) {
    const res = await call('admin', 'POST', '/teams/create', { name });
    if (res.status !== 200) throw new Error(`create team failed: ${JSON.stringify(res)}`);
  }

  return {
    server,
    company,
    admin,
    secondAdmin,
    call,
    dispatcher,
    createWebhook,
    teamEvent,
    close: () => server.close(),
  };
}
export type WebhookWorld = Awaited<ReturnType<typeof startWebhookWorld>>;
