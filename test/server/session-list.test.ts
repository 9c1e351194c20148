import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { sessions } from '../../server/db/schema';
import { startTestServer, type TestServer } from './support/harness';
import { openEventStream } from './support/event-stream';
import { codeIn, lastMailTo } from './support/mail';
import { createCompany, createUser, TEST_PASSWORD } from './support/seed';
import { bearer, signIn, submitCode } from './support/sign-in';

const CHROME_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

let server: TestServer;
let baseUrl: string;
let companyId: number;
let otherCompanyId: number;

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, token: string) =>
  server.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token) });

/** Password and e-mailed code from a browser that says `userAgent`. */
async function signInAs(email: string, userAgent: string, address = '203.0.113.7') {
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    headers: { 'user-agent': userAgent },
    remoteAddress: address,
    payload: { email, password: TEST_PASSWORD },
  });
  expect(res.statusCode).toBe(200);
  const token = res.headers.authorization!.toString().replace(/^Bearer /, '');
  expect((await submitCode(server, token, codeIn(lastMailTo(server, email)))).statusCode).toBe(200);
  return token;
}

async function newUser(options: { isAdmin?: boolean; company?: number } = {}) {
  const user = await createUser(server.database.db, {
    companyId: options.company ?? companyId,
    isAdmin: options.isAdmin,
  });
  return user;
}

beforeAll(async () => {
  server = await startTestServer();
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  companyId = (await createCompany(server.database.db)).company.id;
  otherCompanyId = (await createCompany(server.database.db)).company.id;
});
afterAll(() => server.close());

describe('GET /sessions/list', () => {
  it("lists the caller's live sessions with browser, system, address and this one marked", async () => {
    const { email } = await newUser();
    const onMac = await signInAs(email, CHROME_MAC, '198.51.100.4');
    server.clock.advance(60_000);
    const onPhone = await signInAs(email, SAFARI_IPHONE, '203.0.113.9');
    // A sign-in whose code was never given is not a session of the list.
    await server.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email, password: TEST_PASSWORD },
    });

    const res = await call('GET', '/sessions/list', onPhone);

    expect(res.statusCode).toBe(200);
    const list = res.json().data;
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({
      browser: 'Safari 17',
      system: 'iOS 17.5',
      device: 'mobile',
      address: '203.0.113.9',
      userAgent: SAFARI_IPHONE,
      current: true,
    });
    expect(list[1]).toMatchObject({
      browser: 'Chrome 131',
      system: 'macOS 10.15.7',
      device: 'desktop',
      address: '198.51.100.4',
      current: false,
      signedInAt: new Date(server.clock.now().getTime() - 60_000).toISOString(),
    });
    // The other browser sees the same sessions, its own marked.
    const fromMac = (await call('GET', '/sessions/list', onMac)).json().data;
    expect(fromMac.map((s: { current: boolean }) => s.current)).toEqual([false, true]);
  });

  it('keeps 512 characters of a User-Agent', async () => {
    const { email } = await newUser();
    const token = await signInAs(email, `Agent/${'x'.repeat(600)}`);
    const [row] = await server.database.db
      .select({ userAgent: sessions.userAgent })
      .from(sessions)
      .where(eq(sessions.userId, (await call('GET', '/users/me', token)).json().data.id));
    expect(row!.userAgent).toHaveLength(512);
  });

  it('is refused to an API token: sessions are a signed-in browser’s business', async () => {
    const { email } = await newUser();
    const { token } = await signIn(server, email);
    const created = await server.app.inject({
      method: 'POST',
      url: '/api/v1/apiTokens/create',
      headers: bearer(token),
      payload: {
        name: 'script',
        access: 'readWrite',
        expiresAt: new Date(server.clock.now().getTime() + 86_400_000).toISOString(),
      },
    });
    const apiToken = created.json().data.secret as string;
    const res = await call('GET', '/sessions/list', apiToken);
    expect(res.statusCode).toBe(403);
  });
});

describe('DELETE /sessions/delete/:id', () => {
  it('ends one of the own sessions: its token is refused and its event stream closes', async () => {
    const { email } = await newUser();
    const kept = await signInAs(email, CHROME_MAC);
    const ended = await signInAs(email, SAFARI_IPHONE);
    const stream = await openEventStream(baseUrl, ended);
    expect(stream.status).toBe(200);
    const endedId = (await call('GET', '/sessions/list', ended))
      .json()
      .data.find((s: { current: boolean }) => s.current).id;

    const res = await call('DELETE', `/sessions/delete/${endedId}`, kept);

    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: null, message: 'Signed out of that session' });
    await expect(
      Promise.race([
        stream.ended.then(() => 'ended'),
        new Promise((resolve) => setTimeout(() => resolve('still open'), 3_000)),
      ]),
    ).resolves.toBe('ended');
    expect((await call('GET', '/users/me', ended)).statusCode).toBe(401);
    expect((await call('GET', '/users/me', kept)).statusCode).toBe(200);
    expect((await call('GET', '/sessions/list', kept)).json().data).toHaveLength(1);
    // Ended already: there is nothing to end any more.
    expect((await call('DELETE', `/sessions/delete/${endedId}`, kept)).statusCode).toBe(404);
  });

  it("answers 404 for another user's session, of the same company or another", async () => {
    const { email: mine } = await newUser({ isAdmin: true });
    const { email: colleague } = await newUser();
    const { email: stranger } = await newUser({ company: otherCompanyId });
    const me = await signInAs(mine, CHROME_MAC);
    for (const email of [colleague, stranger]) {
      const theirs = await signInAs(email, CHROME_MAC);
      const id = (await call('GET', '/sessions/list', theirs)).json().data[0].id;

      const res = await call('DELETE', `/sessions/delete/${id}`, me);

      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ data: null, message: 'Session not found' });
      expect((await call('GET', '/users/me', theirs)).statusCode).toBe(200);
    }
  });

  it('answers 400 naming the id when it is not one', async () => {
    const { email } = await newUser();
    const token = await signInAs(email, CHROME_MAC);
    const res = await call('DELETE', '/sessions/delete/abc', token);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([expect.objectContaining({ field: 'id' })]);
  });
});

describe('POST /sessions/deleteOthers', () => {
  it('ends every other session of the caller, pending sign-ins too, and keeps this one', async () => {
    const { email } = await newUser();
    const { email: colleague } = await newUser();
    const others = [await signInAs(email, CHROME_MAC), await signInAs(email, SAFARI_IPHONE)];
    const pending = await server.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email, password: TEST_PASSWORD },
    });
    const pendingToken = pending.headers.authorization!.toString().replace(/^Bearer /, '');
    const colleagueToken = await signInAs(colleague, CHROME_MAC);
    const current = await signInAs(email, CHROME_MAC);
    const stream = await openEventStream(baseUrl, others[0]!);

    const res = await call('POST', '/sessions/deleteOthers', current);

    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { ended: 3 }, message: 'Signed out everywhere else' });
    await stream.ended;
    for (const token of others)
      expect((await call('GET', '/users/me', token)).statusCode).toBe(401);
    const code = await submitCode(server, pendingToken, '000000');
    expect(code.statusCode).toBe(401);
    expect((await call('GET', '/users/me', current)).statusCode).toBe(200);
    expect((await call('GET', '/users/me', colleagueToken)).statusCode).toBe(200);
    const list = (await call('GET', '/sessions/list', current)).json().data;
    expect(list).toEqual([expect.objectContaining({ current: true })]);
  });
});

describe('POST /sessions/deleteAll/:userId', () => {
  it("lets an Admin end every session of a user of the company, closing the user's streams", async () => {
    const { email: adminEmail } = await newUser({ isAdmin: true });
    const user = await newUser();
    const admin = await signInAs(adminEmail, CHROME_MAC);
    const tokens = [
      await signInAs(user.email, CHROME_MAC),
      await signInAs(user.email, SAFARI_IPHONE),
    ];
    const stream = await openEventStream(baseUrl, tokens[1]!);

    const res = await call('POST', `/sessions/deleteAll/${user.id}`, admin);

    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: { ended: 2 },
      message: 'All of the user’s sessions have ended',
    });
    await stream.ended;
    for (const token of tokens)
      expect((await call('GET', '/users/me', token)).statusCode).toBe(401);
    expect((await call('GET', '/users/me', admin)).statusCode).toBe(200);
  });

  it("answers 404 for another company's user and 403 to a non-Admin", async () => {
    const { email: adminEmail } = await newUser({ isAdmin: true });
    const stranger = await newUser({ company: otherCompanyId });
    const { email: memberEmail } = await newUser();
    const colleague = await newUser();
    const admin = await signInAs(adminEmail, CHROME_MAC);
    const member = await signInAs(memberEmail, CHROME_MAC);
    const strangerToken = await signInAs(stranger.email, CHROME_MAC);
    const colleagueToken = await signInAs(colleague.email, CHROME_MAC);

    const foreign = await call('POST', `/sessions/deleteAll/${stranger.id}`, admin);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ data: null, message: 'User not found' });
    expect((await call('GET', '/users/me', strangerToken)).statusCode).toBe(200);

    const notAdmin = await call('POST', `/sessions/deleteAll/${colleague.id}`, member);
    expect(notAdmin.statusCode).toBe(403);
    expect((await call('GET', '/users/me', colleagueToken)).statusCode).toBe(200);
  });
});
