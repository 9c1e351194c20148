import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/harness';
import { bearer } from '../support/sign-in';
import { tableDigests } from '../support/table-digests';
import { isolationCases, routesWithoutCompanyIds } from '../support/isolation-cases';
import {
  callerRoles,
  importTwoTenants,
  OPERATOR_TOKEN,
  type Tenant,
} from '../support/isolation-tenants';

/**
 * Proof that no company can see or touch another's data: every route that takes an id is called
 * with the other company's ids by each role of each company, and must answer 404 (or 403 where a
 * role rule comes first) without changing a single row.
 */

let server: TestServer;
let tenants: [Tenant, Tenant];

// Sessions move on every request (last seen): only whether one was ended is watched there; every
// other table must stay exactly as it was.
const UNWATCHED_TABLES = new Set(['sessions', 'login_failures']);
const SESSION_COLUMNS = { sessions: ['id', 'user_id', 'revoked_at'] };

let fingerprint: () => Promise<Record<string, string>>;
/**
 * The digests the last case read after its call: the next case's state before its own, unless a
 * test between them (the lists) drops them. Half the digests a case would read otherwise.
 */
let lastSeen: Record<string, string> | undefined;

beforeAll(async () => {
  server = await startTestServer({ OPERATOR_TOKEN });
  tenants = await importTwoTenants(server);
  fingerprint = await tableDigests(server.database, UNWATCHED_TABLES, SESSION_COLUMNS);
}, 120_000);
afterAll(() => server?.close());

describe.each([
  ['company A', 0],
  ['company B', 1],
] as const)('a signed-in user of %s', (_name, index) => {
  const own = () => tenants[index];
  const other = () => tenants[1 - index]!;

  describe.each(callerRoles)('as %s', (role) => {
    it.each(isolationCases.map((c) => [`${c.endpoint}: ${c.label}`, c] as const))(
      '%s',
      async (_title, testCase) => {
        const before = lastSeen ?? (await fingerprint());
        lastSeen = undefined;
        const { method, url, payload } = testCase.request(own(), other());
        const res = await server.app.inject({
          method,
          url: `/api/v1${url}`,
          headers: bearer(own().tokens[role]),
          ...(payload ? { payload } : {}),
        });
        expect({ status: res.statusCode, body: res.json() }).toMatchObject({
          status: testCase.expect[role],
          body: { data: null },
        });
        const after = await fingerprint();
        lastSeen = after;
        expect(after).toEqual(before);
      },
    );

    it("lists never show the other company's users, teams, VMs or networks", async () => {
      lastSeen = undefined;
      const headers = bearer(own().tokens[role]);
      const users = await server.app.inject({
        method: 'GET',
        url: '/api/v1/users/list?rowsPerPage=100',
        headers,
      });
      const teams = await server.app.inject({
        method: 'GET',
        url: '/api/v1/teams/list?rowsPerPage=100',
        headers,
      });
      const vms = await server.app.inject({
        method: 'GET',
        url: '/api/v1/virtualMachines/list?rowsPerPage=100',
        headers,
      });
      const vmIds = (vms.json().data.data as { id: number }[]).map((v) => v.id);
      expect(vmIds).toEqual([own().vmId]);
      const networks = await server.app.inject({
        method: 'GET',
        url: '/api/v1/networks/list?rowsPerPage=100',
        headers,
      });
      const networkIds = (networks.json().data.data as { id: number }[]).map((n) => n.id);
      expect(networkIds).toEqual([own().networkId]);
      const userIds = (users.json().data.data as { id: number }[]).map((u) => u.id);
      const teamIds = (teams.json().data.data as { id: number }[]).map((t) => t.id);
      expect(userIds).toEqual(expect.arrayContaining(Object.values(own().userIds)));
      expect(userIds.filter((id) => Object.values(other().userIds).includes(id))).toEqual([]);
      expect(teamIds).toEqual([own().teamId]);
    });
  });
});

describe('coverage', () => {
  it('every API route has a cross-company case or a stated reason to need none', () => {
    const covered = new Set(isolationCases.map((c) => c.endpoint));
    const missing = server.app.apiRoutes
      .map((route) => route.name)
      .filter((route) => !covered.has(route) && !(route in routesWithoutCompanyIds));
    expect(missing).toEqual([]);
  });

  it('names only routes that exist', () => {
    const routes = new Set(server.app.apiRoutes.map((route) => route.name));
    const stale = [
      ...isolationCases.map((c) => c.endpoint),
      ...Object.keys(routesWithoutCompanyIds),
    ].filter((route) => !routes.has(route));
    expect(stale).toEqual([]);
  });

  it('lists the routes it covers', () => {
    const covered = [...new Set(isolationCases.map((c) => c.endpoint))].sort();
    expect(covered).toMatchInlineSnapshot(`
      [
        "DELETE /apiTokens/delete/:id",
        "DELETE /auth/passkeys/delete/:id",
        "DELETE /networks/delete/:id",
        "DELETE /networks/releasePublicIp/:id",
        "DELETE /sessions/delete/:id",
        "DELETE /sshKeys/delete/:id",
        "DELETE /teams/delete",
        "DELETE /teams/removeUser",
        "DELETE /users/delete/:id",
        "DELETE /virtualMachines/:id/removeNetworkInterfaces/:networkId",
        "DELETE /virtualMachines/delete/:id",
        "DELETE /virtualMachines/snapshots/delete/:snapshotId",
        "DELETE /webhooks/delete/:id",
        "GET /activity/list",
        "GET /apiTokens/list",
        "GET /networks/:id",
        "GET /networks/:id/vmsForNetwork",
        "GET /networks/listNetAdapters/:id",
        "GET /permissions/list/:id",
        "GET /reseller/companies/activity/:id",
        "GET /reseller/companies/details/:id",
        "GET /reseller/companies/list",
        "GET /reseller/settings",
        "GET /reseller/usage",
        "GET /teams/:id",
        "GET /users/details/:id",
        "GET /users/list",
        "GET /users/teams/:id",
        "GET /virtualMachines/:id/availableNetworks",
        "GET /virtualMachines/details/:id",
        "GET /virtualMachines/fetchVirtualMachineConfigurations/:regionId",
        "GET /virtualMachines/getAccessKey/:id",
        "GET /virtualMachines/getConsole/:id",
        "GET /virtualMachines/getPassword/:id",
        "GET /virtualMachines/list",
        "GET /virtualMachines/listImages/:id",
        "GET /virtualMachines/snapshots/list/:vmId",
        "GET /webhooks/deliveries/:id",
        "POST /apiTokens/create",
        "POST /apiTokens/revokeAll",
        "POST /networks/allocatePublicIp/:id",
        "POST /permissions/assign",
        "POST /reseller/companies/create",
        "POST /reseller/companies/resume/:id",
        "POST /reseller/companies/suspend/:id",
        "POST /roles/updateUserRoleForTeam",
        "POST /sessions/deleteAll/:userId",
        "POST /teams/addUser",
        "POST /teams/create",
        "POST /teams/update",
        "POST /users/create",
        "POST /users/edit",
        "POST /virtualMachines/:id/addNetworkInterfaces",
        "POST /virtualMachines/create",
        "POST /virtualMachines/reinstall/:id",
        "POST /virtualMachines/reset/:id",
        "POST /virtualMachines/snapshots/create/:vmId",
        "POST /virtualMachines/snapshots/restore/:snapshotId",
        "POST /virtualMachines/start/:id",
        "POST /virtualMachines/stop/:id",
        "POST /webhooks/test/:id",
        "PUT /auth/passkeys/rename/:id",
        "PUT /networks/update/:id",
        "PUT /reseller/companies/limits/:id",
        "PUT /reseller/settings",
        "PUT /virtualMachines/changeConfiguration",
        "PUT /virtualMachines/edit/:id",
      ]
    `);
  });
});
