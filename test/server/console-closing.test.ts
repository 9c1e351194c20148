import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ROLE, type RoleId } from '../../src/api/contract/roles';
import {
  CONSOLE_IDLE_MS,
  CONSOLE_LIFETIME_MS,
  CONSOLES_PER_USER,
  CONSOLES_PER_VM,
  consoleEnds,
} from '../../server/domain/consoles/open-consoles';
import {
  consoleUrlFor,
  openConsole,
  openedConsole,
  type OpenConsole,
} from './support/console-client';
import { addTeamMember, createTeam, createUser, NEW_PASSWORD, TEST_PASSWORD } from './support/seed';
import { bearer, signIn } from './support/sign-in';
import { startVmWorld, type VmWorld } from './support/vm-world';

/**
 * An open console (keyboard and screen of the guest) closes when its viewer may no longer have
 * it, the moment the product hears of it; open consoles are capped; an idle or old one closes.
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

const db = () => w.server.database.db;
const api = (token: string, method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  w.server.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), payload });

/** A new user of team Alpha (an Operator unless said), signed in. */
async function newMember(roleId: RoleId = ROLE.operator) {
  const user = await createUser(db(), { companyId: w.companyId });
  await addTeamMember(db(), { teamId: w.alphaId, userId: user.id, roleId });
  const { token } = await signIn(w.server, user.email);
  return { user, token };
}

/** The console of `id` open in the session, its login prompt shown. */
async function watch(token: string, id = vmId) {
  const term = await openedConsole(w.server, await consoleUrlFor(w.server, token, id), { token });
  opened.push(term);
  await term.waitFor('login:');
  return term;
}

describe('an open console closes', () => {
  it('when its session signs out', async () => {
    const { token } = await newMember();
    const term = await watch(token);
    expect((await api(token, 'POST', '/auth/logout')).statusCode).toBe(200);
    expect(await term.closed).toEqual(consoleEnds.sessionEnded);
  });

  it('when its session is revoked (the password changed in another session)', async () => {
    const { user, token } = await newMember();
    const term = await watch(token);
    const { token: elsewhere } = await signIn(w.server, user.email);
    const changed = await api(elsewhere, 'POST', '/users/updatePassword', {
      currentPassword: TEST_PASSWORD,
      password: NEW_PASSWORD,
    });
    expect(changed.statusCode).toBe(200);
    expect(await term.closed).toEqual(consoleEnds.sessionEnded);
  });

  it('when its user is deleted', async () => {
    const { user, token } = await newMember();
    const term = await watch(token);
    expect((await w.call('admin', 'DELETE', `/users/delete/${user.id}`)).status).toBe(200);
    expect(await term.closed).toEqual(consoleEnds.sessionEnded);
  });

  it('when its user leaves the VM’s team, and not when another member does', async () => {
    const { user, token } = await newMember();
    const { user: other, token: otherToken } = await newMember();
    const term = await watch(token);
    const staying = await watch(otherToken);
    const removed = await w.call('manager', 'DELETE', '/teams/removeUser', {
      teamId: w.alphaId,
      userId: user.id,
    });
    expect(removed.status).toBe(200);
    expect(await term.closed).toEqual(consoleEnds.noAccess);
    // The other viewer's console was checked too, and stays.
    staying.send('x');
    await staying.waitFor('login: x');
    expect(w.server.app.consoles.size).toBe(1);
    await w.call('manager', 'DELETE', '/teams/removeUser', { teamId: w.alphaId, userId: other.id });
  });

  it('when its user loses the right to operate the VM (made a Viewer)', async () => {
    const { user, token } = await newMember();
    const term = await watch(token);
    const changed = await w.call('manager', 'POST', '/roles/updateUserRoleForTeam', {
      teamId: w.alphaId,
      userId: user.id,
      roleId: ROLE.viewer,
    });
    expect(changed.status).toBe(200);
    expect(await term.closed).toEqual(consoleEnds.noAccess);
  });

  it('when the VM moves to another team, even an Admin’s', async () => {
    const id = await w.runningVm('mover');
    const beta = await createTeam(db(), { companyId: w.companyId, name: 'Beta' });
    const { token } = await newMember();
    const { token: adminToken } = await signIn(w.server, 'admin@a.test');
    const terms = [await watch(token, id), await watch(adminToken, id)];
    const moved = await w.call('admin', 'PUT', `/virtualMachines/edit/${id}`, { teamId: beta.id });
    expect(moved.status).toBe(200);
    for (const term of terms) expect(await term.closed).toEqual(consoleEnds.noAccess);
  });

  it('when the VM is deleted', async () => {
    const id = await w.runningVm('doomed');
    const { token } = await newMember();
    const term = await watch(token, id);
    expect((await w.call('admin', 'DELETE', `/virtualMachines/delete/${id}`)).status).toBe(200);
    expect(await term.closed).toEqual(consoleEnds.noAccess);
    await w.server.finishOperations();
  });
});

describe('open consoles are capped', () => {
  it(`at ${CONSOLES_PER_VM} per VM: another viewer is refused, the same one replaces their oldest`, async () => {
    const { token } = await newMember();
    const { token: colleague } = await newMember();
    const [first, second] = [await watch(token), await watch(token)];
    expect(CONSOLES_PER_VM).toBe(2);

    const refused = await openedConsole(w.server, await consoleUrlFor(w.server, colleague, vmId), {
      token: colleague,
    });
    expect(await refused.closed).toEqual(consoleEnds.full);

    const third = await watch(token);
    expect(await first!.closed).toEqual(consoleEnds.replaced);
    expect(w.server.app.consoles.size).toBe(2);
    second!.send('a');
    third.send('b');
    await second!.waitFor('login: a');
    await third.waitFor('login: b');
  });

  it(`at ${CONSOLES_PER_USER} per user: the fifth closes their oldest`, async () => {
    const ids = [vmId, await w.runningVm('second'), await w.runningVm('third')];
    const { token } = await newMember();
    const terms = [
      await watch(token, ids[0]),
      await watch(token, ids[1]),
      await watch(token, ids[1]),
      await watch(token, ids[2]),
    ];
    expect(w.server.app.consoles.size).toBe(CONSOLES_PER_USER);
    await watch(token, ids[0]);
    expect(await terms[0]!.closed).toEqual(consoleEnds.replaced);
    expect(w.server.app.consoles.size).toBe(CONSOLES_PER_USER);
  });
});

describe('an open console times out', () => {
  it(`after ${CONSOLE_IDLE_MS / 60_000} minutes without input`, async () => {
    const { token } = await newMember();
    const term = await watch(token);
    const minute = 60_000;
    w.server.clock.advance(CONSOLE_IDLE_MS - minute);
    await w.server.app.consoles.sweep();
    term.send('r');
    await term.waitFor('login: r');
    w.server.clock.advance(CONSOLE_IDLE_MS - minute);
    await w.server.app.consoles.sweep();
    expect(w.server.app.consoles.size).toBe(1);
    w.server.clock.advance(minute);
    await w.server.app.consoles.sweep();
    expect(await term.closed).toEqual(consoleEnds.idle);
  });

  it(`${CONSOLE_LIFETIME_MS / 3_600_000} hours after it opened, however much it is used`, async () => {
    const { token } = await newMember();
    const term = await watch(token);
    const step = 10 * 60_000;
    for (let at = step; at < CONSOLE_LIFETIME_MS; at += step) {
      w.server.clock.advance(step);
      term.send('.');
    }
    await term.waitFor('.'.repeat(CONSOLE_LIFETIME_MS / step - 1));
    await w.server.app.consoles.sweep();
    expect(w.server.app.consoles.size).toBe(1);
    w.server.clock.advance(step);
    await w.server.app.consoles.sweep();
    expect(await term.closed).toEqual(consoleEnds.lifetime);
    await w.signInAgain();
  });
});

it('a refused console leaves no count behind', async () => {
  const { token } = await newMember();
  const url = await consoleUrlFor(w.server, token, vmId);
  expect(await openConsole(w.server, url, { token, origin: 'http://evil.test' })).toBe(403);
  expect(w.server.app.consoles.size).toBe(0);
});
