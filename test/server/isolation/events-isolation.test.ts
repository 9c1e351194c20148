import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityEvent } from '../../../src/api/contract/activity';
import { openEventStream, type EventStreamClient } from '../support/event-stream';
import { startTestServer, type TestServer } from '../support/harness';
import { bearer } from '../support/sign-in';
import {
  callerRoles,
  importTwoTenants,
  OPERATOR_TOKEN,
  type Tenant,
} from '../support/isolation-tenants';

/**
 * The event stream and the activity history never show a company another's events, nor a member
 * the VMs of a team they are not in: both companies work while every role of each listens.
 */

let server: TestServer;
let tenants: [Tenant, Tenant];
let baseUrl: string;
/** Per company, a team nobody but the Admin is in, and its VM. */
const hidden: { teamId: number; vmId: number }[] = [];
const streams: EventStreamClient[][] = [];

async function call(tenant: Tenant, method: 'GET' | 'POST', url: string, payload?: object) {
  const res = await server.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: bearer(tenant.tokens.admin),
    ...(payload ? { payload } : {}),
  });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
  return res.json().data;
}

beforeAll(async () => {
  server = await startTestServer({ OPERATOR_TOKEN });
  tenants = await importTwoTenants(server);
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  for (const tenant of tenants) {
    streams.push(
      await Promise.all(callerRoles.map((role) => openEventStream(baseUrl, tenant.tokens[role]))),
    );
  }
  for (const [index, tenant] of tenants.entries()) {
    const { teamId } = await call(tenant, 'POST', '/teams/create', { name: `Hidden ${index}` });
    const { ids } = await call(tenant, 'POST', '/virtualMachines/create', {
      ...tenant.order,
      teamId,
      name: `hidden-${index}`,
      numberOfInstances: 1,
    });
    hidden.push({ teamId, vmId: ids[0] });
    await call(tenant, 'POST', `/virtualMachines/stop/${tenant.vmId}`);
  }
  await server.finishOperations();
  // Each company's Admin has heard the last of it: its own VM stopped.
  for (const [index, tenant] of tenants.entries()) {
    await streams[index]![0]!.waitUntil(() =>
      streams[index]![0]!.received.some(
        (s) =>
          s.event.action === 'vm.stop' &&
          s.event.outcome === 'succeeded' &&
          s.event.subject.id === tenant.vmId,
      ),
    );
  }
  // Let whatever else was coming arrive.
  await new Promise((resolve) => setTimeout(resolve, 300));
}, 180_000);
afterAll(async () => {
  for (const stream of streams.flat()) stream.close();
  await server?.close();
});

/** Everything a company owns that its events may name, by subject type. */
const owned = (index: number) => {
  const tenant = tenants[index]!;
  return {
    vm: [tenant.vmId, hidden[index]!.vmId],
    team: [tenant.teamId, hidden[index]!.teamId],
    network: [tenant.networkId],
    user: Object.values(tenant.userIds),
  };
};

const names = (events: ActivityEvent[]) => events.map((e) => `${e.subject.type}:${e.subject.id}`);

describe.each([
  ['company A', 0],
  ['company B', 1],
] as const)('in %s', (_name, index) => {
  const other = 1 - index;

  describe.each(callerRoles.map((role, at) => [role, at] as const))('as %s', (role, at) => {
    const received = () => streams[index]![at]!.received.map((s) => s.event);

    it("the stream never brings the other company's events", () => {
      const theirs = owned(other);
      const leaked = received().filter((e) =>
        (theirs[e.subject.type as keyof typeof theirs] ?? []).includes(e.subject.id),
      );
      expect(names(leaked)).toEqual([]);
      expect(received().some((e) => e.subject.id === tenants[index]!.vmId)).toBe(true);
    });

    it("the stream brings a team's VM only to the team's members and Admins", () => {
      const sawHidden = received().some(
        (e) => e.subject.type === 'vm' && e.subject.id === hidden[index]!.vmId,
      );
      expect(sawHidden).toBe(role === 'admin');
    });

    it("the history never shows the other company's events, nor a team's VM to others", async () => {
      const res = await server.app.inject({
        method: 'GET',
        url: '/api/v1/activity/list?rowsPerPage=100',
        headers: bearer(tenants[index]!.tokens[role]),
      });
      expect(res.statusCode).toBe(200);
      const events = res.json().data.data as ActivityEvent[];
      expect(events.length).toBeGreaterThan(0);
      const theirs = owned(other);
      expect(
        names(
          events.filter((e) =>
            (theirs[e.subject.type as keyof typeof theirs] ?? []).includes(e.subject.id),
          ),
        ),
      ).toEqual([]);
      const hiddenVm = events.some(
        (e) => e.subject.type === 'vm' && e.subject.id === hidden[index]!.vmId,
      );
      expect(hiddenVm).toBe(role === 'admin');
      // What the stream brought is what the history holds for this caller, newest first.
      const streamed = received().map((e) => e.id);
      expect(events.map((e) => e.id).filter((id) => streamed.includes(id))).toEqual(
        [...streamed].reverse().filter((id) => events.some((e) => e.id === id)),
      );
    });
  });
});
