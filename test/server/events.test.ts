import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ActivityEvent } from '../../src/api/contract/activity';
import { openEventStream, type EventStreamClient } from './support/event-stream';
import { signIn } from './support/sign-in';
import { startVmWorld, type VmWorld } from './support/vm-world';

/**
 * The event log and its stream: what each change records, who hears of it, and that a stream
 * resumed after a drop misses nothing.
 */

const OPERATOR_TOKEN = 'events-operator-token-0123456789';
let w: VmWorld;
let baseUrl: string;
const streams: EventStreamClient[] = [];

beforeAll(async () => {
  w = await startVmWorld({ env: { OPERATOR_TOKEN } });
  await w.server.app.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${(w.server.app.server.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  for (const stream of streams) stream.close();
  await w?.close();
});
beforeEach(() => w.server.sim.faults.clear());

async function open(token: string, options?: Parameters<typeof openEventStream>[2]) {
  const stream = await openEventStream(baseUrl, token, options);
  streams.push(stream);
  return stream;
}

/** A fresh session of a world user, so that a test may end it without harming the others. */
const sessionOf = async (who: string) => (await signIn(w.server, `${who}@a.test`)).token;

async function history(who: Parameters<VmWorld['call']>[0], query: string) {
  const res = await w.call(who, 'GET', `/activity/list?${query}`);
  expect(res.status).toBe(200);
  return (res.body as { data: { data: ActivityEvent[]; totalPages: number } }).data;
}

/** What a test compares: the parts of an event that do not depend on ids. */
const gist = (e: ActivityEvent) => ({
  action: e.action,
  outcome: e.outcome,
  actor: e.actor.name,
  subject: e.subject.name,
  detail: e.detail,
});

describe('the event log', () => {
  it("records a VM's life: who asked, what the engine did, and how it ended", async () => {
    const vmId = await w.runningVm('life');
    expect(await w.call('operator', 'POST', `/virtualMachines/stop/${vmId}`)).toMatchObject({
      status: 200,
    });
    await w.server.finishOperations();
    const page = await history('admin', `subjectType=vm&subjectId=${vmId}&sortDescending=false`);
    expect(page.data.map(gist)).toEqual([
      {
        action: 'vm.created',
        outcome: 'requested',
        actor: 'Ada Admin',
        subject: 'life',
        detail: {},
      },
      {
        action: 'vm.status',
        outcome: 'observed',
        actor: 'System',
        subject: 'life',
        detail: { from: 'Provisioning', to: 'Running' },
      },
      {
        action: 'vm.created',
        outcome: 'succeeded',
        actor: 'Ada Admin',
        subject: 'life',
        detail: {},
      },
      {
        action: 'vm.stop',
        outcome: 'requested',
        actor: 'Otto Operator',
        subject: 'life',
        detail: {},
      },
      {
        action: 'vm.status',
        outcome: 'observed',
        actor: 'Otto Operator',
        subject: 'life',
        detail: { from: 'Running', to: 'Stopping' },
      },
      {
        action: 'vm.status',
        outcome: 'observed',
        actor: 'System',
        subject: 'life',
        detail: { from: 'Stopping', to: 'Stopped' },
      },
      {
        action: 'vm.stop',
        outcome: 'succeeded',
        actor: 'Otto Operator',
        subject: 'life',
        detail: {},
      },
    ]);
    const [requested, , , stopRequested] = page.data;
    expect(requested!.operationId).toEqual(expect.any(Number));
    expect(requested!.teamId).toBe(w.alphaId);
    expect(requested!.actor).toEqual({ type: 'user', id: w.userIds.admin, name: 'Ada Admin' });
    expect(page.data.at(-1)!.operationId).toBe(stopRequested!.operationId);
  });

  it("keeps a failed operation's reason, in the name of whoever asked", async () => {
    const vmId = await w.runningVm('doomed');
    await w.call('operator', 'POST', `/virtualMachines/stop/${vmId}`);
    await w.server.finishOperations();
    // The operator arms the engine's fault through the API, as one would by hand.
    const armed = await w.server.app.inject({
      method: 'POST',
      url: '/api/v1/sim/faults',
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
      payload: { kind: 'fail', action: 'start', message: 'No host has room' },
    });
    expect(armed.json()).toEqual({ data: null, message: 'Fault armed' });
    await w.call('manager', 'POST', `/virtualMachines/start/${vmId}`);
    await w.server.finishOperations();
    const [last, status] = (await history('viewer', `subjectType=vm&subjectId=${vmId}`)).data;
    expect(gist(last!)).toEqual({
      action: 'vm.start',
      outcome: 'failed',
      actor: 'Mia Manager',
      subject: 'doomed',
      detail: { reason: 'No host has room' },
    });
    expect(gist(status!)).toMatchObject({ detail: { from: 'Starting', to: 'Stopped' } });
  });

  it('records a rename and the interfaces of a network, seen by whoever may see them', async () => {
    const vmId = await w.runningVm('grow');
    await w.call('operator', 'POST', `/virtualMachines/stop/${vmId}`);
    await w.server.finishOperations();
    await w.call('operator', 'PUT', `/virtualMachines/edit/${vmId}`, { name: 'grown' });
    const created = await w.call('admin', 'POST', '/networks/create', {
      name: 'backend',
      regionId: (await w.order()).regionId,
      cidrBlock: '10.30.0.0/24',
      networkType: 'custom',
    });
    expect(created.status).toBe(200);
    const networkId = (created.body as { data: { id: number } }).data.id;
    await w.server.finishOperations();
    expect(
      (
        await w.call('operator', 'POST', `/virtualMachines/${vmId}/addNetworkInterfaces`, {
          networkId,
        })
      ).status,
    ).toBe(200);
    await w.server.finishOperations();
    const vmHistory = (await history('admin', `subjectType=vm&subjectId=${vmId}`)).data;
    expect(vmHistory.slice(0, 3).map(gist)).toEqual([
      {
        action: 'interface.add',
        outcome: 'succeeded',
        actor: 'Otto Operator',
        subject: 'grown',
        detail: { network: 'backend', vmnic: 2 },
      },
      {
        action: 'interface.add',
        outcome: 'requested',
        actor: 'Otto Operator',
        subject: 'grown',
        detail: { network: 'backend', vmnic: 2 },
      },
      {
        action: 'vm.edit',
        outcome: 'succeeded',
        actor: 'Otto Operator',
        subject: 'grown',
        detail: { from: 'grow', to: 'grown' },
      },
    ]);
    const networkHistory = (await history('outsider', `networkId=${networkId}`)).data;
    // The outsider sees the network's own events, not those of a VM of a team they are not in.
    expect(networkHistory.map((e) => [e.action, e.outcome])).toEqual([
      ['network.create', 'succeeded'],
      ['network.create', 'requested'],
    ]);
    const asAdmin = (await history('admin', `networkId=${networkId}`)).data;
    expect(asAdmin.map((e) => [e.action, e.outcome])).toEqual([
      ['interface.add', 'succeeded'],
      ['interface.add', 'requested'],
      ['network.create', 'succeeded'],
      ['network.create', 'requested'],
    ]);
  });

  it('records nothing for a refused change', async () => {
    const vmId = await w.runningVm('calm');
    const before = await history('admin', `subjectType=vm&subjectId=${vmId}`);
    expect((await w.call('viewer', 'POST', `/virtualMachines/stop/${vmId}`)).status).toBe(403);
    expect((await w.call('operator', 'POST', `/virtualMachines/start/${vmId}`)).status).toBe(409);
    expect(await history('admin', `subjectType=vm&subjectId=${vmId}`)).toEqual(before);
  });
});

describe('POST /sim/faults', () => {
  it('is for the operator only, and names a bad field', async () => {
    const asAdmin = await w.call('admin', 'POST', '/sim/faults', {
      kind: 'fail',
      action: 'start',
      message: 'x',
    });
    expect(asAdmin.status).toBe(401);
    const bad = await w.server.app.inject({
      method: 'POST',
      url: '/api/v1/sim/faults',
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
      payload: { kind: 'fail', action: 'explode', message: 'x' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('action');
  });
});

describe('GET /activity/list', () => {
  it('pages newest first and filters by outcome, actor and date', async () => {
    const vmId = await w.runningVm('paged');
    const all = await history('admin', `subjectType=vm&subjectId=${vmId}&rowsPerPage=2`);
    expect(all.totalPages).toBe(2);
    expect(all.data.map((e) => e.outcome)).toEqual(['succeeded', 'observed']);
    const second = await history('admin', `subjectType=vm&subjectId=${vmId}&rowsPerPage=2&page=2`);
    expect(second.data.map((e) => e.outcome)).toEqual(['requested']);
    expect(all.data[0]!.id).toBeGreaterThan(all.data[1]!.id);

    const failed = await history('admin', `subjectType=vm&subjectId=${vmId}&outcome=failed`);
    expect(failed).toEqual({ data: [], totalPages: 1 });
    const system = await history('admin', `subjectType=vm&subjectId=${vmId}&actorType=system`);
    expect(system.data.map((e) => e.action)).toEqual(['vm.status']);
    const byAda = await history(
      'admin',
      `subjectId=${vmId}&subjectType=vm&actorId=${w.userIds.admin}`,
    );
    expect(byAda.data).toHaveLength(2);
    const today = w.server.clock.now().toISOString().slice(0, 10);
    expect(
      (await history('admin', `subjectType=vm&subjectId=${vmId}&from=${today}&to=${today}`)).data,
    ).toHaveLength(3);
    expect((await history('admin', `subjectType=vm&subjectId=${vmId}&to=2000-01-01`)).data).toEqual(
      [],
    );
    const searched = await history('admin', 'search=PAGED');
    expect(searched.data.every((e) => e.subject.name === 'paged')).toBe(true);
  });

  it('shows others only the VMs of their teams', async () => {
    const [noTeam] = await w.createVms('admin', { name: 'loner', teamId: null });
    await w.server.finishOperations();
    const asViewer = await history('viewer', 'subjectType=vm&rowsPerPage=100');
    expect(asViewer.data.length).toBeGreaterThan(0);
    expect(asViewer.data.every((e) => e.teamId === w.alphaId)).toBe(true);
    expect(
      (await w.call('viewer', 'GET', `/activity/list?subjectType=vm&subjectId=${noTeam}`)).status,
    ).toBe(404);
    const asOutsider = await history('outsider', 'rowsPerPage=100');
    expect(asOutsider.data.every((e) => e.subject.type === 'network')).toBe(true);
    expect((await history('admin', `subjectType=vm&subjectId=${noTeam}`)).data).toHaveLength(3);
  });

  it('answers 400 naming the field for bad filters', async () => {
    for (const [query, field] of [
      ['outcome=maybe', 'outcome'],
      ['subjectType=planet', 'subjectType'],
      ['from=yesterday', 'from'],
      ['to=2026-13-45', 'to'],
      ['subjectId=-3&subjectType=vm', 'subjectId'],
      ['sortColumn=name', 'sortColumn'],
    ]) {
      const res = await w.call('admin', 'GET', `/activity/list?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.errors?.[0]?.field, query).toBe(field);
    }
  });
});

describe('GET /events', () => {
  it('streams the events each caller may see, as they commit, to every open console', async () => {
    const admin = await open(await sessionOf('admin'));
    const viewer = await open(await sessionOf('viewer'));
    const outsider = await open(await sessionOf('outsider'));
    const stranger = await open((await signIn(w.server, 'stranger@b.test')).token);
    expect([admin.status, viewer.status, outsider.status, stranger.status]).toEqual([
      200, 200, 200, 200,
    ]);

    const [vmId] = await w.createVms('operator', { name: 'live' });
    await w.server.finishOperations();
    const ofVm = (stream: EventStreamClient) =>
      stream.received.filter((s) => s.event.subject.type === 'vm');
    await admin.waitUntil(() => ofVm(admin).length >= 3);
    const adminSaw = ofVm(admin);
    expect(adminSaw.map((s) => [s.event.action, s.event.outcome])).toEqual([
      ['vm.created', 'requested'],
      ['vm.status', 'observed'],
      ['vm.created', 'succeeded'],
    ]);
    expect(adminSaw.map((s) => s.id)).toEqual(adminSaw.map((s) => s.event.id));
    expect(adminSaw[1]!.event).toMatchObject({
      subject: { type: 'vm', id: vmId, name: 'live' },
      detail: { from: 'Provisioning', to: 'Running' },
      occurredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    // The viewer is in the VM's team; the outsider and the other company hear nothing of it.
    await viewer.waitUntil(() => ofVm(viewer).length >= 3);
    expect(ofVm(viewer).map((s) => s.id)).toEqual(adminSaw.map((s) => s.id));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(ofVm(outsider)).toEqual([]);
    expect(stranger.received).toEqual([]);
  });

  it('resumes after Last-Event-ID without a gap or a repeat', async () => {
    const token = await sessionOf('admin');
    const first = await open(token);
    const vmId = await w.runningVm('resume');
    const before = await first.waitFor(3);
    const lastSeen = before.at(-1)!.id;
    first.close();
    await first.ended;
    // While nobody listens: a stop, then its end.
    await w.call('operator', 'POST', `/virtualMachines/stop/${vmId}`);
    await w.server.finishOperations();
    const again = await open(token, { lastEventId: lastSeen });
    const missed = await again.waitFor(4);
    expect(missed.map((s) => [s.event.action, s.event.outcome])).toEqual([
      ['vm.stop', 'requested'],
      ['vm.status', 'observed'],
      ['vm.status', 'observed'],
      ['vm.stop', 'succeeded'],
    ]);
    expect(missed[0]!.id).toBeGreaterThan(lastSeen);
    // Live again after the backlog: the next change comes once.
    await w.call('operator', 'POST', `/virtualMachines/start/${vmId}`);
    await w.server.finishOperations();
    const all = await again.waitFor(8);
    const ids = all.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(all).toHaveLength(8);

    const viaQuery = await open(token, { query: `?lastEventId=${lastSeen}` });
    expect((await viaQuery.waitFor(8)).map((s) => s.id)).toEqual(ids);
  });

  it('ends when the session is revoked', async () => {
    const token = await sessionOf('manager');
    const stream = await open(token);
    const res = await w.server.app.inject({
      method: 'POST',
      url: '/api/v1/auth/logout',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(200);
    await expect(
      Promise.race([
        stream.ended.then(() => 'ended'),
        new Promise((resolve) => setTimeout(() => resolve('still open'), 3_000)),
      ]),
    ).resolves.toBe('ended');
    expect((await open(token)).status).toBe(401);
  });

  it('keeps at most eight streams per user, closing the oldest', async () => {
    const token = await sessionOf('viewer');
    const opened: EventStreamClient[] = [];
    for (let i = 0; i < 9; i += 1) opened.push(await open(token));
    await expect(
      Promise.race([
        opened[0]!.ended.then(() => 'ended'),
        new Promise((resolve) => setTimeout(() => resolve('still open'), 3_000)),
      ]),
    ).resolves.toBe('ended');
    for (const stream of opened) stream.close();
  });

  it('refuses an anonymous caller and a malformed Last-Event-ID', async () => {
    const anonymous = await fetch(`${baseUrl}/api/v1/events`);
    expect(anonymous.status).toBe(401);
    await anonymous.body?.cancel();
    const token = await sessionOf('admin');
    const res = await fetch(`${baseUrl}/api/v1/events`, {
      headers: { cookie: `launchpad_session=${token}`, 'last-event-id': 'yesterday' },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { errors: unknown }).errors).toEqual([
      { field: 'Last-Event-ID', message: 'Must be the id of an event' },
    ]);
  });
});
