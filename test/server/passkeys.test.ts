import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, resellerDomains, sessions } from '../../server/db/schema';
import { webauthnChallenges } from '../../server/db/self-service-schema';
import { hashSecretToken } from '../../server/domain/identity/secret-tokens';
import { startTestServer, type TestServer } from './support/harness';
import { createCompany, createUser } from './support/seed';
import { bearer, logIn, signIn, submitCode } from './support/sign-in';
import { SoftwareAuthenticator } from './support/software-authenticator';

/** PUBLIC_URL of the test server (support/harness.ts). */
const RP_ID = 'console.test';
const ORIGIN = 'http://console.test';

let server: TestServer;
let companyId: number;
let resellerId: number;

const call = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  token?: string,
  payload?: unknown,
  host = RP_ID,
) =>
  server.app.inject({
    method,
    url: `/api/v1/auth/passkeys${url}`,
    headers: { host, ...(token ? bearer(token) : {}) },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const me = (token: string) =>
  server.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: bearer(token) });

const sessionRow = async (token: string) =>
  (
    await server.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, hashSecretToken(token)))
  )[0]!;

async function newUser(options: { company?: number } = {}) {
  const user = await createUser(server.database.db, { companyId: options.company ?? companyId });
  const { token } = await signIn(server, user.email);
  return { ...user, token };
}

/** Registers a credential of `authenticator` for the signed-in `token`, named `name`. */
async function register(
  token: string,
  authenticator: SoftwareAuthenticator,
  options: { name?: string; discoverable?: boolean } = {},
) {
  const res = await call('POST', '/createOptions', token);
  expect(res.statusCode).toBe(200);
  const { challenge, rp, user } = res.json().data;
  const credential = authenticator.create(
    { challenge, rpId: rp.id, origin: ORIGIN, userHandle: user.id },
    { discoverable: options.discoverable },
  );
  return call('POST', '/create', token, { name: options.name ?? 'YubiKey', credential });
}

beforeAll(async () => {
  server = await startTestServer();
  const made = await createCompany(server.database.db);
  companyId = made.company.id;
  resellerId = made.reseller.id;
});
afterAll(() => server.close());

describe('registering passkeys and security keys', () => {
  it('offers options for this site, and keeps the credential under its name', async () => {
    const { token } = await newUser();
    const options = (await call('POST', '/createOptions', token)).json().data;
    expect(options).toMatchObject({
      rp: { id: RP_ID, name: 'Launchpad' },
      attestation: 'none',
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
      extensions: { credProps: true },
      excludeCredentials: [],
    });

    const authenticator = new SoftwareAuthenticator();
    const res = await register(token, authenticator, { name: '  Laptop passkey  ' });

    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      data: { name: 'Laptop passkey', discoverable: true, lastUsedAt: null },
      message: 'Passkey added',
    });
    const second = await register(token, new SoftwareAuthenticator(), {
      name: 'Old security key',
      discoverable: false,
    });
    expect(second.json().data).toMatchObject({ name: 'Old security key', discoverable: false });
    const list = (await call('GET', '/list', token)).json().data;
    expect(list.map((p: { name: string }) => p.name)).toEqual([
      'Old security key',
      'Laptop passkey',
    ]);
    // Both are excluded from the next registration: an authenticator holding one says so.
    const next = (await call('POST', '/createOptions', token)).json().data;
    const excluded = next.excludeCredentials.map((c: { id: string }) => c.id);
    expect(excluded).toHaveLength(2);
    expect(excluded).toContain(authenticator.credentials[0]!.id.toString('base64url'));
  });

  it('uses a challenge once: the same answer again is refused', async () => {
    const { token } = await newUser();
    const res = await call('POST', '/createOptions', token);
    const { challenge, user } = res.json().data;
    const credential = new SoftwareAuthenticator().create({
      challenge,
      rpId: RP_ID,
      origin: ORIGIN,
      userHandle: user.id,
    });
    expect((await call('POST', '/create', token, { name: 'Key', credential })).statusCode).toBe(
      200,
    );

    const again = await call('POST', '/create', token, { name: 'Key', credential });

    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({
      data: null,
      message: 'This request has expired or was already used. Please try again.',
      errors: [
        {
          field: 'credential',
          message: 'This request has expired or was already used. Please try again.',
        },
      ],
    });
  });

  it('refuses an answer for another session’s challenge, an expired one, or another origin', async () => {
    const alice = await newUser();
    const bob = await newUser();
    const authenticator = new SoftwareAuthenticator();
    const aliceOptions = (await call('POST', '/createOptions', alice.token)).json().data;
    const forAlice = authenticator.create({
      challenge: aliceOptions.challenge,
      rpId: RP_ID,
      origin: ORIGIN,
      userHandle: aliceOptions.user.id,
    });
    const stolen = await call('POST', '/create', bob.token, { name: 'Key', credential: forAlice });
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json().message).toMatch(/expired or was already used/);

    const late = (await call('POST', '/createOptions', alice.token)).json().data;
    server.clock.advance(5 * 60_000 + 1);
    const tooLate = await call('POST', '/create', alice.token, {
      name: 'Key',
      credential: authenticator.create({ ...late, rpId: RP_ID, origin: ORIGIN, userHandle: 'x' }),
    });
    expect(tooLate.statusCode).toBe(400);
    expect(tooLate.json().message).toMatch(/expired or was already used/);

    const phished = (await call('POST', '/createOptions', alice.token)).json().data;
    const elsewhere = await call('POST', '/create', alice.token, {
      name: 'Key',
      credential: authenticator.create({
        challenge: phished.challenge,
        rpId: RP_ID,
        origin: 'https://console-login.example',
        userHandle: phished.user.id,
      }),
    });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json().message).toBe(
      'The passkey or security key could not be verified. Please try again.',
    );
    expect((await call('GET', '/list', alice.token)).json().data).toEqual([]);
  });

  it('answers 400 naming the field for a bad name or a malformed credential', async () => {
    const { token } = await newUser();
    const res = await call('POST', '/create', token, { name: ' ', credential: { id: 'x' } });
    expect(res.statusCode).toBe(400);
    const fields = res.json().errors.map((e: { field: string }) => e.field);
    expect(fields).toContain('name');
    expect(fields.some((f: string) => f.startsWith('credential'))).toBe(true);
    expect(res.json().errors).toContainEqual({
      field: 'name',
      message: 'Passkey name cannot be empty',
    });
  });

  it('is refused to an API token and to a session still waiting for its code', async () => {
    const user = await newUser();
    const created = await server.app.inject({
      method: 'POST',
      url: '/api/v1/apiTokens/create',
      headers: bearer(user.token),
      payload: {
        name: 'script',
        access: 'readWrite',
        expiresAt: new Date(server.clock.now().getTime() + 86_400_000).toISOString(),
      },
    });
    const apiToken = created.json().data.secret as string;
    expect((await call('POST', '/createOptions', apiToken)).statusCode).toBe(403);
    expect((await call('GET', '/list', apiToken)).statusCode).toBe(403);
    const { token: pending } = await logIn(server, user.email);
    expect((await call('POST', '/createOptions', pending)).statusCode).toBe(401);
  });

  it('makes a reseller’s own domain the relying party there', async () => {
    await server.database.db
      .insert(resellerDomains)
      .values({ host: 'cloud.reseller.test', resellerId, source: 'settings' });
    const { token } = await newUser();
    const res = await call('POST', '/createOptions', token, undefined, 'cloud.reseller.test');
    expect(res.json().data.rp.id).toBe('cloud.reseller.test');
    // Any other host name gets the product's.
    const other = await call('POST', '/createOptions', token, undefined, 'unknown.example');
    expect(other.json().data.rp.id).toBe(RP_ID);
  });
});

describe('renaming and removing', () => {
  it('renames and removes the user’s own, and answers 404 for anyone else’s', async () => {
    const owner = await newUser();
    const stranger = await newUser({
      company: (await createCompany(server.database.db)).company.id,
    });
    const colleague = await newUser();
    const { id } = (await register(owner.token, new SoftwareAuthenticator())).json().data;

    const renamed = await call('PUT', `/rename/${id}`, owner.token, { name: 'Blue key' });
    expect(renamed.json()).toMatchObject({
      data: { id, name: 'Blue key' },
      message: 'Passkey renamed',
    });

    for (const other of [colleague, stranger]) {
      const rename = await call('PUT', `/rename/${id}`, other.token, { name: 'Mine now' });
      expect(rename.statusCode).toBe(404);
      expect(rename.json()).toEqual({ data: null, message: 'Passkey not found' });
      expect((await call('DELETE', `/delete/${id}`, other.token)).statusCode).toBe(404);
      expect((await call('GET', '/list', other.token)).json().data).toEqual([]);
    }
    const blank = await call('PUT', `/rename/${id}`, owner.token, { name: '' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().errors).toEqual([
      { field: 'name', message: 'Passkey name cannot be empty' },
    ]);

    const removed = await call('DELETE', `/delete/${id}`, owner.token);
    expect(removed.json()).toEqual({ data: null, message: 'Passkey removed' });
    expect((await call('GET', '/list', owner.token)).json().data).toEqual([]);
  });

  it('keeps the last one of a user whose company requires a strong second factor', async () => {
    const { company } = await createCompany(server.database.db);
    const user = await newUser({ company: company.id });
    const { id } = (await register(user.token, new SoftwareAuthenticator())).json().data;
    await server.database.db
      .update(companies)
      .set({ requireStrongSecondFactor: true })
      .where(eq(companies.id, company.id));

    const res = await call('DELETE', `/delete/${id}`, user.token);

    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/requires an authenticator app or a passkey/);
    expect((await call('GET', '/list', user.token)).json().data).toHaveLength(1);
  });
});

/** Password given: the session waits for its second step. */
async function pendingSignIn(email: string) {
  const { token, code } = await logIn(server, email);
  return { token, code };
}

async function secondStep(token: string, authenticator: SoftwareAuthenticator, counter?: number) {
  const options = (await call('POST', '/mfaOptions', token)).json().data;
  const credential = authenticator.get(
    { challenge: options.challenge, rpId: options.rpId, origin: ORIGIN },
    undefined,
    counter === undefined ? {} : { counter },
  );
  return { res: await call('POST', '/mfa', token, { credential }), credential, options };
}

describe('a passkey as the second step', () => {
  it('signs the session in instead of the e-mailed code, which is then void', async () => {
    const user = await newUser();
    const authenticator = new SoftwareAuthenticator();
    await register(user.token, authenticator, { discoverable: false });
    const { token, code } = await pendingSignIn(user.email);
    const options = (await call('POST', '/mfaOptions', token)).json().data;
    expect(options).toMatchObject({
      rpId: RP_ID,
      userVerification: 'preferred',
      allowCredentials: [
        { id: authenticator.credentials[0]!.id.toString('base64url'), type: 'public-key' },
      ],
    });
    const credential = authenticator.get({
      challenge: options.challenge,
      rpId: RP_ID,
      origin: ORIGIN,
    });

    const res = await call('POST', '/mfa', token, { credential });

    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      data: { user: { email: user.email } },
      message: 'Authenticated',
    });
    expect((await me(token)).statusCode).toBe(200);
    expect(await sessionRow(token)).toMatchObject({
      secondFactor: 'passkey',
      codeHash: null,
      verifiedAt: server.clock.now(),
    });
    expect((await submitCode(server, token, code)).statusCode).toBe(400);
    const [kept] = (await call('GET', '/list', token)).json().data;
    expect(kept.lastUsedAt).toBe(server.clock.now().toISOString());
    // The same answer again: its challenge is gone.
    const { token: next } = await pendingSignIn(user.email);
    expect((await call('POST', '/mfa', next, { credential })).statusCode).toBe(400);
  });

  it('refuses a counter that does not move forward (a cloned authenticator)', async () => {
    const user = await newUser();
    const authenticator = new SoftwareAuthenticator();
    await register(user.token, authenticator);
    const first = await pendingSignIn(user.email);
    expect((await secondStep(first.token, authenticator, 5)).res.statusCode).toBe(200);

    const { token } = await pendingSignIn(user.email);
    const { res } = await secondStep(token, authenticator, 5);

    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      'The passkey or security key could not be verified. Please try again.',
    );
    expect((await me(token)).statusCode).toBe(401);
  });

  it('refuses another user’s credential, and tells a user without one to use the code', async () => {
    const alice = await newUser();
    const bob = await newUser();
    const bobsKey = new SoftwareAuthenticator();
    await register(bob.token, bobsKey);
    await register(alice.token, new SoftwareAuthenticator());
    const { token } = await pendingSignIn(alice.email);
    const options = (await call('POST', '/mfaOptions', token)).json().data;
    const res = await call('POST', '/mfa', token, {
      credential: bobsKey.get({ challenge: options.challenge, rpId: RP_ID, origin: ORIGIN }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      'This passkey or security key is not registered for your account',
    );
    expect((await me(token)).statusCode).toBe(401);

    const carol = await newUser();
    const { token: carolPending } = await pendingSignIn(carol.email);
    const none = await call('POST', '/mfaOptions', carolPending);
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe(
      'You have no passkey or security key. Use the code from the e-mail instead.',
    );
    // Without a session at all, nothing is offered.
    expect((await call('POST', '/mfaOptions')).statusCode).toBe(401);
  });
});

async function passwordless(
  authenticator: SoftwareAuthenticator,
  options: { rememberMe?: boolean } = {},
) {
  const offered = (await call('POST', '/loginOptions')).json().data;
  const credential = authenticator.get({
    challenge: offered.challenge,
    rpId: offered.rpId,
    origin: ORIGIN,
  });
  return {
    offered,
    res: await call('POST', '/login', undefined, { credential, ...options }),
  };
}

describe('signing in with a passkey, without the password', () => {
  it('makes a signed-in session at once, its second factor the passkey', async () => {
    const user = await newUser();
    const authenticator = new SoftwareAuthenticator();
    await register(user.token, authenticator);

    const { offered, res } = await passwordless(authenticator, { rememberMe: true });

    expect(offered).toMatchObject({ rpId: RP_ID, userVerification: 'required' });
    expect(offered.allowCredentials ?? []).toEqual([]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ data: { user: { id: user.id } }, message: 'Authenticated' });
    const token = res.headers.authorization!.toString().replace(/^Bearer /, '');
    expect(res.cookies.find((c) => c.name === 'launchpad_session')?.value).toBe(token);
    expect((await me(token)).json().data.email).toBe(user.email);
    expect(await sessionRow(token)).toMatchObject({
      secondFactor: 'passkey',
      rememberMe: true,
      verifiedAt: server.clock.now(),
    });
    // Nothing was e-mailed.
    expect(server.outbox().filter((mail) => mail.includes(user.email))).toHaveLength(1);
  });

  it('refuses a security key that is no passkey, and a device that did not verify its user', async () => {
    const user = await newUser();
    const securityKey = new SoftwareAuthenticator();
    await register(user.token, securityKey, { discoverable: false });
    const notPasskey = await passwordless(securityKey);
    expect(notPasskey.res.statusCode).toBe(401);
    expect(notPasskey.res.headers.authorization).toBeUndefined();

    const passkey = new SoftwareAuthenticator();
    await register(user.token, passkey);
    passkey.userVerified = false;
    const unverified = await passwordless(passkey);
    expect(unverified.res.statusCode).toBe(400);
    expect(unverified.res.json().message).toBe(
      'Your device did not verify you (PIN or biometrics). Please try again.',
    );
    expect(unverified.res.headers.authorization).toBeUndefined();
  });

  it('answers a suspended company’s user with whom to contact, and makes no session', async () => {
    const { company, reseller } = await createCompany(server.database.db);
    const user = await newUser({ company: company.id });
    const authenticator = new SoftwareAuthenticator();
    await register(user.token, authenticator);
    await server.database.db
      .update(companies)
      .set({ suspendedAt: server.clock.now() })
      .where(eq(companies.id, company.id));

    const { res } = await passwordless(authenticator);

    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(
      `This account is suspended. Contact ${reseller.email} for help.`,
    );
    expect(res.headers.authorization).toBeUndefined();
  });

  it('keeps no challenge once answered, and drops expired ones', async () => {
    const user = await newUser();
    const authenticator = new SoftwareAuthenticator();
    await register(user.token, authenticator);
    const { offered } = await passwordless(authenticator);
    const left = await server.database.db
      .select()
      .from(webauthnChallenges)
      .where(eq(webauthnChallenges.challenge, offered.challenge));
    expect(left).toEqual([]);
  });
});
