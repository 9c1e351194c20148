import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityEvent } from '../../src/api/contract/activity';
import { authMessages } from '../../src/api/contract/auth';
import { resellerMessages, type CustomerDetails } from '../../src/api/contract/reseller';
import { consoleEnds } from '../../server/domain/consoles/open-consoles';
import { consoleUrlFor, openedConsole, type OpenConsole } from './support/console-client';
import { openEventStream, type EventStreamClient } from './support/event-stream';
import { mailsTo } from './support/mail';
import { TEST_PASSWORD } from './support/seed';
import { signIn } from './support/sign-in';
import {
  SUPPORT_EMAIL,
  startSuspensionWorld,
  type SuspensionWorld,
} from './support/suspension-world';
import { startReceiver, type Receiver } from './support/webhook-world';

/**
 * A reseller suspends a customer with two running VMs and a stopped one, and resumes it: what the
 * customer's users, their credentials and the reseller's staff see, from end to end. The tests run
 * in order, each on the state the previous one left.
 */

let w: SuspensionWorld;
let receiver: Receiver;
let vms: { run1: number; run2: number; idle: number };
let scriptToken: { secret: string };
let companyName: string;

const HOOK_PATH = '/hooks/suspension';

beforeAll(async () => {
  w = await startSuspensionWorld();
  receiver = await startReceiver();
  vms = {
    run1: await w.runningVm('run-1'),
    run2: await w.runningVm('run-2'),
    idle: await w.runningVm('idle'),
  };
  expect((await w.call('admin', 'POST', `/virtualMachines/stop/${vms.idle}`)).status).toBe(200);
  await w.server.finishOperations();

  const hook = await w.call('admin', 'POST', '/webhooks/create', {
    url: `http://127.0.0.1:${receiver.port}${HOOK_PATH}`,
    events: ['company.suspend', 'company.resume'],
  });
  expect(hook.status, JSON.stringify(hook.body)).toBe(200);
  const token = await w.call('operator', 'POST', '/apiTokens/create', {
    name: 'Nightly script',
    expiresAt: '2027-01-01T00:00:00Z',
    access: 'readWrite',
  });
  expect(token.status).toBe(200);
  scriptToken = { secret: (token.body.data as { secret: string }).secret };
  companyName = (await details()).name;
}, 120_000);
afterAll(async () => {
  await receiver?.close();
  await w?.close();
});

async function details(): Promise<CustomerDetails> {
  const res = await w.callAs('staff', 'GET', `/reseller/companies/details/${w.companyId}`);
  expect(res.status).toBe(200);
  return res.body.data as CustomerDetails;
}

const login = (email: string, password = TEST_PASSWORD) =>
  w.server.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password } });

/** What the webhook received, as events. */
const delivered = () =>
  receiver.received
    .filter((r) => r.url === HOOK_PATH)
    .map((r) => JSON.parse(r.body) as ActivityEvent);

const RITA = () => ({ type: 'user', id: w.staffIds.staff, name: 'Rita Reseller' });

/** The operations the reseller's user asked for, of one kind. */
const resellerOperations = async (kind: string) =>
  (await w.operationsOf()).filter(
    (op) => op.kind === kind && op.requestedBy?.id === w.staffIds.staff,
  );

describe('suspending a customer', () => {
  let stream: EventStreamClient;
  let term: OpenConsole;
  let suspendedAt: Date;

  beforeAll(async () => {
    // An operator watching the live log and a VM's console, in one session.
    const { token } = await signIn(w.server, 'operator@a.test');
    stream = await openEventStream(w.baseUrl, token);
    expect(stream.status).toBe(200);
    term = await openedConsole(w.server, await consoleUrlFor(w.server, token, vms.run1), {
      token,
    });
    await term.waitFor('login:');
    suspendedAt = w.server.clock.now();
    expect(await w.reseller('staff', 'suspend', w.companyId)).toEqual({
      status: 200,
      body: { data: null, message: resellerMessages.customerSuspended },
    });
  });
  afterAll(() => stream?.close());

  it("closes its users' event streams and consoles at once: their session ended", async () => {
    await stream.ended;
    expect(await term.closed).toEqual(consoleEnds.sessionEnded);
  });

  it("stops exactly its running VMs through durable vm.stop operations in the reseller's name", async () => {
    expect(await w.statuses()).toEqual({
      'run-1': 'Stopping',
      'run-2': 'Stopping',
      idle: 'Stopped',
    });
    await w.server.finishOperations();
    expect(await w.statuses()).toEqual({ 'run-1': 'Stopped', 'run-2': 'Stopped', idle: 'Stopped' });
    expect(await resellerOperations('vm.stop')).toEqual([
      expect.objectContaining({ vmId: vms.run1, status: 'succeeded', requestedBy: RITA() }),
      expect.objectContaining({ vmId: vms.run2, status: 'succeeded', requestedBy: RITA() }),
    ]);
  });

  it("refuses the company's session tokens and API tokens", async () => {
    expect(await w.call('admin', 'GET', '/virtualMachines/list')).toEqual({
      status: 401,
      body: { data: null, message: authMessages.notAuthenticated },
    });
    expect(await w.callWith(scriptToken.secret, 'GET', '/virtualMachines/list')).toEqual({
      status: 403,
      body: {
        data: null,
        message: `This account is suspended. Contact ${SUPPORT_EMAIL} for help.`,
      },
    });
    // Nor can anyone of it start a VM again.
    const start = await w.callWith(
      scriptToken.secret,
      'POST',
      `/virtualMachines/start/${vms.run1}`,
    );
    expect(start.status).toBe(403);
    expect(await w.statuses()).toMatchObject({ 'run-1': 'Stopped' });
  });

  it("answers its users' sign-in with the reseller's support address, and sends no code", async () => {
    const mails = mailsTo(w.server, 'admin@a.test').length;
    const res = await login('admin@a.test');
    expect({ status: res.statusCode, body: res.json() }).toEqual({
      status: 403,
      body: { data: null, message: authMessages.accountSuspended(SUPPORT_EMAIL) },
    });
    expect(authMessages.accountSuspended(SUPPORT_EMAIL)).toBe(
      'This account is suspended. Contact help@cloudy.test for help.',
    );
    expect(res.headers.authorization).toBeUndefined();
    expect(mailsTo(w.server, 'admin@a.test')).toHaveLength(mails);
    // Only the right password learns of the suspension.
    const wrong = await login('admin@a.test', 'Wrong#Password1');
    expect({ status: wrong.statusCode, body: wrong.json() }).toEqual({
      status: 401,
      body: { data: null, message: authMessages.invalidCredentials },
    });
  });

  it('shows the customer suspended, since when, in its details and the list', async () => {
    expect(await details()).toMatchObject({
      state: 'suspended',
      suspendedAt: suspendedAt.toISOString(),
      vmsRunning: 0,
      vmsTotal: 3,
    });
    const list = await w.callAs('staff', 'GET', `/reseller/companies/list`);
    expect(list.body.data.data).toContainEqual(
      expect.objectContaining({
        id: w.companyId,
        state: 'suspended',
        suspendedAt: suspendedAt.toISOString(),
      }),
    );
  });

  it('sends company.suspend, by the reseller user, to a webhook subscribed to it', async () => {
    await w.dispatcher.drain();
    expect(delivered()).toEqual([
      expect.objectContaining({
        action: 'company.suspend',
        outcome: 'succeeded',
        actor: RITA(),
        subject: { type: 'company', id: w.companyId, name: companyName },
      }),
    ]);
  });

  it('answers 409 when suspended again, and changes nothing', async () => {
    const before = await w.operationsOf();
    expect(await w.reseller('staff', 'suspend', w.companyId)).toEqual({
      status: 409,
      body: { data: null, message: resellerMessages.alreadySuspended },
    });
    expect(await w.operationsOf()).toEqual(before);
    expect((await details()).suspendedAt).toBe(suspendedAt.toISOString());
  });
});

describe('resuming it', () => {
  beforeAll(async () => {
    w.server.clock.advance(60_000);
    expect(await w.reseller('staff', 'resume', w.companyId)).toEqual({
      status: 200,
      body: { data: null, message: resellerMessages.customerResumed },
    });
  });

  it('starts exactly the VMs that were running, through vm.start operations', async () => {
    expect(await w.statuses()).toEqual({
      'run-1': 'Starting',
      'run-2': 'Starting',
      idle: 'Stopped',
    });
    await w.server.finishOperations();
    expect(await w.statuses()).toEqual({ 'run-1': 'Running', 'run-2': 'Running', idle: 'Stopped' });
    expect(await resellerOperations('vm.start')).toEqual([
      expect.objectContaining({ vmId: vms.run1, status: 'succeeded', requestedBy: RITA() }),
      expect.objectContaining({ vmId: vms.run2, status: 'succeeded', requestedBy: RITA() }),
    ]);
  });

  it('lets its users sign in again, and its API tokens work again', async () => {
    const { token } = await signIn(w.server, 'admin@a.test');
    expect((await w.callWith(token, 'GET', '/virtualMachines/list')).status).toBe(200);
    expect((await w.callWith(scriptToken.secret, 'GET', '/virtualMachines/list')).status).toBe(200);
  });

  it("logs both in the company's own history, with the reseller's user as the actor", async () => {
    await w.signInAgain();
    const company = await w.call(
      'admin',
      'GET',
      '/activity/list?subjectType=company&sortDescending=false',
    );
    expect(company.status).toBe(200);
    const subject = { type: 'company', id: w.companyId, name: companyName };
    expect(company.body.data.data).toEqual([
      expect.objectContaining({
        action: 'company.suspend',
        outcome: 'succeeded',
        actor: RITA(),
        subject,
      }),
      expect.objectContaining({
        action: 'company.resume',
        outcome: 'succeeded',
        actor: RITA(),
        subject,
      }),
    ]);
    const vm = await w.call(
      'admin',
      'GET',
      `/activity/list?subjectType=vm&subjectId=${vms.run1}&sortDescending=false&rowsPerPage=100`,
    );
    const byRita = (vm.body.data.data as ActivityEvent[])
      .filter((e) => e.actor.id === w.staffIds.staff && e.action !== 'vm.status')
      .map((e) => `${e.action} ${e.outcome}`);
    expect(byRita).toEqual([
      'vm.stop requested',
      'vm.stop succeeded',
      'vm.start requested',
      'vm.start succeeded',
    ]);
  });

  it('sends company.resume to the webhook', async () => {
    await w.dispatcher.drain();
    expect(delivered().map((e) => e.action)).toEqual(['company.suspend', 'company.resume']);
  });

  it('shows the customer active again', async () => {
    expect(await details()).toMatchObject({ state: 'active', suspendedAt: null, vmsRunning: 2 });
  });

  it('answers 409 when resumed again, and starts nothing', async () => {
    const before = await w.operationsOf();
    expect(await w.reseller('staff', 'resume', w.companyId)).toEqual({
      status: 409,
      body: { data: null, message: resellerMessages.notSuspended },
    });
    expect(await w.operationsOf()).toEqual(before);
  });
});
