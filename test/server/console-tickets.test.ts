import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiTokenMessages } from '../../src/api/contract/api-tokens';
import { ROLE } from '../../src/api/contract/roles';
import { buildApp } from '../../server/app';
import { connectPostgres } from '../../server/db/client';
import * as schema from '../../server/schema';
import { consoleEnds } from '../../server/domain/consoles/open-consoles';
import { CONSOLE_TICKET_MS } from '../../server/providers/console-ticket';
import {
  consoleUrlFor,
  openConsole,
  openConsoleAt,
  openedConsole,
  type OpenConsole,
} from './support/console-client';
import { addTeamMember, createTeam, createUser } from './support/seed';
import { bearer, signIn } from './support/sign-in';
import { startVmWorld, type VmWorld } from './support/vm-world';

/**
 * A console link (the sim's page, the engine tests and users see by default) is bound to the
 * session, the user and the VM it was given for, opens one console, and only from the console's
 * own pages.
 */
let w: VmWorld;
let vmId: number;
const opened: OpenConsole[] = [];

beforeAll(async () => {
  w = await startVmWorld();
  vmId = await w.runningVm('consoled');
});
afterEach(async () => {
  for (const term of opened.splice(0)) term.socket.close();
  await expect.poll(() => w.server.app.consoles.size).toBe(0);
});
afterAll(() => w.close());

/** A new operator of team Alpha, signed in: their session's token. */
async function newOperator() {
  const db = w.server.database.db;
  const user = await createUser(db, { companyId: w.companyId });
  await addTeamMember(db, { teamId: w.alphaId, userId: user.id, roleId: ROLE.operator });
  const { token } = await signIn(w.server, user.email);
  return { user, token };
}

const page = (url: string, token?: string) =>
  w.server.app.inject({
    method: 'GET',
    url,
    headers: token ? { cookie: `launchpad_session=${token}` } : {},
  });

async function open(url: string, token?: string) {
  const term = await openedConsole(w.server, url, { token });
  opened.push(term);
  return term;
}

describe('a console link', () => {
  it('is the sim console page with a ticket naming the VM, the user and the session', async () => {
    const { user, token } = await newOperator();
    const url = await consoleUrlFor(w.server, token, vmId);
    const match = /^\/sim\/console\/(\d+)\.(\d+)\.s(\d+)\.[\w-]{22}\.\d+\.[\w-]{24}$/.exec(url);
    expect(match?.slice(1, 3)).toEqual([String(vmId), String(user.id)]);
  });

  it('shows the login prompt over its websocket, and echoes what is typed', async () => {
    const { token } = await newOperator();
    const url = await consoleUrlFor(w.server, token, vmId);
    const res = await page(url, token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    // The page holds no screen of the guest: that comes only through the websocket.
    expect(res.body).not.toContain('login:');
    const term = await open(url, token);
    await term.waitFor('consoled login: ');
    term.send('root\r');
    await term.waitFor('consoled login: root\nPassword: ');
  });

  it('can be loaded again, and then opens one console only', async () => {
    const { token } = await newOperator();
    const url = await consoleUrlFor(w.server, token, vmId);
    expect((await page(url, token)).statusCode).toBe(200);
    expect((await page(url, token)).statusCode).toBe(200);
    const first = await open(url, token);
    await first.waitFor('login:');
    expect(await openConsole(w.server, url, { token })).toBe(403);
    expect((await page(url, token)).statusCode).toBe(404);
    // Closed, its ticket is no better.
    first.socket.close();
    await first.closed;
    expect(await openConsole(w.server, url, { token })).toBe(403);
  });

  it('is refused in another session of the same user, or to another user, and stays good', async () => {
    const { user, token } = await newOperator();
    const { token: elsewhere } = await signIn(w.server, user.email);
    const { token: colleague } = await newOperator();
    const url = await consoleUrlFor(w.server, token, vmId);
    for (const other of [elsewhere, colleague]) {
      expect((await page(url, other)).statusCode).toBe(404);
      expect(await openConsole(w.server, url, { token: other })).toBe(403);
    }
    expect((await page(url)).statusCode).toBe(404);
    expect(await openConsole(w.server, url, {})).toBe(403);
    await (await open(url, token)).waitFor('login:');
  });

  it('is refused from a page of another origin, or with no origin at all', async () => {
    const { token } = await newOperator();
    const url = await consoleUrlFor(w.server, token, vmId);
    expect(await openConsole(w.server, url, { token, origin: 'http://evil.test' })).toBe(403);
    expect(await openConsole(w.server, url, { token, origin: 'null' })).toBe(403);
    expect(await openConsole(w.server, url, { token, origin: null })).toBe(403);
    // A browser that says the request is its own page's (the console under another host name).
    const term = await openedConsole(w.server, url, {
      token,
      origin: null,
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    opened.push(term);
    await term.waitFor('login:');
  });

  it('asks for vm.operate again when it opens', async () => {
    const { user, token } = await newOperator();
    const url = await consoleUrlFor(w.server, token, vmId);
    const removed = await w.call('manager', 'DELETE', '/teams/removeUser', {
      teamId: w.alphaId,
      userId: user.id,
    });
    expect(removed.status).toBe(200);
    expect(await openConsole(w.server, url, { token })).toBe(403);
  });

  it('expires after a minute unopened, and is refused once tampered with', async () => {
    const { token } = await newOperator();
    const url = await consoleUrlFor(w.server, token, vmId);
    const forged = url.replace(/\.(\d+)\.([\w-]+)$/, (_all, expiry: string, mac: string) => {
      return `.${Number(expiry) + 3600}.${mac}`;
    });
    expect((await page(forged, token)).statusCode).toBe(404);
    expect(await openConsole(w.server, forged, { token })).toBe(403);
    w.server.clock.advance(CONSOLE_TICKET_MS);
    expect((await page(url, token)).statusCode).toBe(404);
    expect(await openConsole(w.server, url, { token })).toBe(403);
  });

  it('is given to those who operate the VM only', async () => {
    const res = await w.server.app.inject({
      method: 'GET',
      url: `/api/v1/virtualMachines/getConsole/${vmId}`,
      headers: bearer((await signIn(w.server, 'viewer@a.test')).token),
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('a console link given to an API token', () => {
  /**
   * A token of a new operator of team Alpha, made from their session; narrowed to `teamIds`, of
   * which they are made operators too.
   */
  async function operatorToken(
    options: { access?: 'read' | 'readWrite'; teamIds?: number[] } = {},
  ) {
    const { user, token: session } = await newOperator();
    for (const teamId of options.teamIds ?? []) {
      await addTeamMember(w.server.database.db, { teamId, userId: user.id, roleId: ROLE.operator });
    }
    const res = await w.server.app.inject({
      method: 'POST',
      url: '/api/v1/apiTokens/create',
      headers: bearer(session),
      payload: {
        name: 'console script',
        expiresAt: new Date(w.server.clock.now().getTime() + 86_400_000).toISOString(),
        access: options.access ?? 'readWrite',
        ...(options.teamIds ? { teamIds: options.teamIds } : {}),
      },
    });
    expect(res.statusCode).toBe(200);
    const { secret, token } = res.json().data as { secret: string; token: { id: number } };
    return { user, session, secret, tokenId: token.id };
  }

  const consoleRequest = (secret: string) =>
    w.server.app.inject({
      method: 'GET',
      url: `/api/v1/virtualMachines/getConsole/${vmId}`,
      headers: bearer(secret),
    });

  it('opens in a browser with no session, once, while its read-write token lives', async () => {
    const { user, secret, tokenId } = await operatorToken();
    const url = await consoleUrlFor(w.server, secret, vmId);
    const match = /^\/sim\/console\/(\d+)\.(\d+)\.t(\d+)\./.exec(url);
    expect(match?.slice(1, 4)).toEqual([String(vmId), String(user.id), String(tokenId)]);
    expect((await page(url)).statusCode).toBe(200);
    const term = await open(url);
    await term.waitFor('consoled login: ');
    expect(await openConsole(w.server, url)).toBe(403);
  });

  it('is refused to a read token, and to a token narrowed to other teams', async () => {
    const read = await operatorToken({ access: 'read' });
    expect(await consoleRequest(read.secret)).toMatchObject({
      statusCode: 403,
      body: expect.stringContaining(apiTokenMessages.readOnly),
    });
    const gamma = await createTeam(w.server.database.db, { companyId: w.companyId, name: 'Gamma' });
    const elsewhere = await operatorToken({ teamIds: [gamma.id] });
    expect((await consoleRequest(elsewhere.secret)).statusCode).toBe(404);
  });

  it('closes at once when its token is revoked, and its unopened links with it', async () => {
    const { session, secret, tokenId } = await operatorToken();
    const term = await open(await consoleUrlFor(w.server, secret, vmId));
    await term.waitFor('login:');
    const unopened = await consoleUrlFor(w.server, secret, vmId);
    const revoked = await w.server.app.inject({
      method: 'DELETE',
      url: `/api/v1/apiTokens/delete/${tokenId}`,
      headers: bearer(session),
    });
    expect(revoked.statusCode).toBe(200);
    expect(await term.closed).toEqual(consoleEnds.noAccess);
    expect((await page(unopened)).statusCode).toBe(404);
    expect(await openConsole(w.server, unopened)).toBe(403);
  });
});

describe('two server processes on one database', () => {
  it('open a ticket once between them, and a sign-out at one closes the console at the other', async () => {
    // On PostgreSQL a connection of its own, as another process has; on PGlite the same one.
    const database = w.server.databaseUrl
      ? connectPostgres(schema, w.server.databaseUrl)
      : w.server.database;
    const second = await buildApp({
      config: w.server.config,
      db: database.db,
      mailer: { send: async () => {} },
      drivers: w.server.drivers,
      clock: w.server.clock,
      listen: database.listen,
    });
    try {
      await second.listen({ host: '127.0.0.1', port: 0 });
      const { token } = await newOperator();
      const url = await consoleUrlFor(w.server, token, vmId);
      const there = await openConsoleAt(
        `ws://127.0.0.1:${(second.server.address() as AddressInfo).port}`,
        url,
        { token },
      );
      if (typeof there === 'number') throw new Error(`refused: ${there}`);
      await there.waitFor('login:');
      expect(await openConsole(w.server, url, { token })).toBe(403);

      const out = await w.server.app.inject({
        method: 'POST',
        url: '/api/v1/auth/logout',
        headers: bearer(token),
      });
      expect(out.statusCode).toBe(200);
      expect(await there.closed).toEqual(consoleEnds.sessionEnded);
    } finally {
      await second.close();
      if (database !== w.server.database) await database.close();
    }
  });
});
