import { ROLE } from '../../../src/api/contract/roles';
import type { CallerRole, Tenant } from './isolation-tenants';

type Status = 403 | 404;
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type Expected = Record<CallerRole, Status>;

/** One request that names another company's id, and what each role of the caller must get. */
export interface IsolationCase {
  /** The route as the server lists it (`METHOD /path`). */
  endpoint: string;
  label: string;
  request: (
    own: Tenant,
    other: Tenant,
  ) => {
    method: Method;
    url: string;
    payload?: Record<string, unknown>;
  };
  expect: Expected;
}

const everyone404: Expected = { admin: 404, manager: 404, operator: 404, viewer: 404 };
/** Company-wide actions: Admins only, so everybody else meets the role rule first. */
const adminOnly: Expected = { admin: 404, manager: 403, operator: 403, viewer: 403 };
/** Member management on the caller's own team: Managers and Admins get past the role rule. */
const teamManagers: Expected = { admin: 404, manager: 404, operator: 403, viewer: 403 };
/** VM editors (Operators up) get past the role rule; Viewers meet it first. */
const vmEditors: Expected = { admin: 404, manager: 404, operator: 404, viewer: 403 };

export const isolationCases: IsolationCase[] = [
  {
    endpoint: 'POST /apiTokens/create',
    label: "narrowed to another company's team",
    request: (_own, other) => ({
      method: 'POST',
      url: '/apiTokens/create',
      payload: {
        name: 'cross',
        // Within a year of the test servers' clock (support/harness.ts).
        expiresAt: '2027-01-01T00:00:00Z',
        access: 'read',
        teamIds: [other.teamId],
      },
    }),
    expect: everyone404,
  },
  {
    endpoint: 'DELETE /webhooks/delete/:id',
    label: "another company's webhook",
    request: (_own, other) => ({ method: 'DELETE', url: `/webhooks/delete/${other.webhookId}` }),
    expect: adminOnly,
  },
  {
    endpoint: 'GET /webhooks/deliveries/:id',
    label: "another company's webhook's deliveries",
    request: (_own, other) => ({ method: 'GET', url: `/webhooks/deliveries/${other.webhookId}` }),
    expect: adminOnly,
  },
  {
    endpoint: 'POST /webhooks/test/:id',
    label: "a test event to another company's webhook",
    request: (_own, other) => ({ method: 'POST', url: `/webhooks/test/${other.webhookId}` }),
    expect: adminOnly,
  },
  {
    endpoint: 'DELETE /apiTokens/delete/:id',
    label: "another company's API token",
    request: (_own, other) => ({ method: 'DELETE', url: `/apiTokens/delete/${other.apiTokenId}` }),
    expect: everyone404,
  },
  {
    endpoint: 'GET /apiTokens/list',
    label: "another company's user's API tokens",
    request: (_own, other) => ({
      method: 'GET',
      url: `/apiTokens/list?userId=${other.userIds.admin}`,
    }),
    expect: adminOnly,
  },
  {
    endpoint: 'POST /apiTokens/revokeAll',
    label: "another company's user's API tokens",
    request: (_own, other) => ({
      method: 'POST',
      url: '/apiTokens/revokeAll',
      payload: { userId: other.userIds.admin },
    }),
    expect: adminOnly,
  },
  {
    endpoint: 'GET /activity/list',
    label: "another company's VM's history",
    request: (_own, other) => ({
      method: 'GET',
      url: `/activity/list?subjectType=vm&subjectId=${other.vmId}`,
    }),
    expect: everyone404,
  },
  {
    endpoint: 'GET /activity/list',
    label: "another company's network's history",
    request: (_own, other) => ({
      method: 'GET',
      url: `/activity/list?networkId=${other.networkId}`,
    }),
    expect: everyone404,
  },
  {
    endpoint: 'GET /activity/list',
    label: "another company's team's history",
    request: (_own, other) => ({
      method: 'GET',
      url: `/activity/list?subjectType=team&subjectId=${other.teamId}`,
    }),
    expect: everyone404,
  },
  {
    endpoint: 'GET /users/details/:id',
    label: "another company's user",
    request: (_own, other) => ({ method: 'GET', url: `/users/details/${other.userIds.viewer}` }),
    expect: everyone404,
  },
  {
    endpoint: 'GET /users/teams/:id',
    label: "another company's user's teams",
    request: (_own, other) => ({ method: 'GET', url: `/users/teams/${other.userIds.viewer}` }),
    expect: everyone404,
  },
  {
    endpoint: 'GET /users/list',
    label: "excluding another company's team",
    request: (_own, other) => ({ method: 'GET', url: `/users/list?excludeTeamId=${other.teamId}` }),
    expect: everyone404,
  },
  {
    endpoint: 'POST /users/create',
    label: "inviting into another company's team",
    request: (_own, other) => ({
      method: 'POST',
      url: '/users/create',
      payload: { email: 'intruder@iso.test', roleId: ROLE.viewer, teamIds: [other.teamId] },
    }),
    expect: adminOnly,
  },
  {
    endpoint: 'POST /users/edit',
    label: "renaming another company's user",
    request: (_own, other) => ({
      method: 'POST',
      url: '/users/edit',
      payload: { id: other.userIds.viewer, firstName: 'Hacked', lastName: 'Name' },
    }),
    expect: adminOnly,
  },
  {
    endpoint: 'DELETE /users/delete/:id',
    label: "deleting another company's user",
    request: (_own, other) => ({ method: 'DELETE', url: `/users/delete/${other.userIds.viewer}` }),
    expect: adminOnly,
  },
  {
    endpoint: 'GET /teams/:id',
    label: "another company's team",
    request: (_own, other) => ({ method: 'GET', url: `/teams/${other.teamId}` }),
    expect: everyone404,
  },
  {
    endpoint: 'POST /teams/create',
    label: "under another company's parent team",
    request: (_own, other) => ({
      method: 'POST',
      url: '/teams/create',
      payload: { name: 'Intruders', parentTeamId: other.teamId },
    }),
    expect: adminOnly,
  },
  {
    endpoint: 'POST /teams/update',
    label: "renaming another company's team",
    request: (_own, other) => ({
      method: 'POST',
      url: '/teams/update',
      payload: { teamId: other.teamId, name: 'Hacked' },
    }),
    expect: everyone404,
  },
  {
    endpoint: 'POST /teams/addUser',
    label: "another company's user into another company's team",
    request: (_own, other) => ({
      method: 'POST',
      url: '/teams/addUser',
      payload: { teamId: other.teamId, userId: other.userIds.viewer },
    }),
    expect: everyone404,
  },
  {
    endpoint: 'POST /teams/addUser',
    label: "another company's user into the own team",
    request: (own, other) => ({
      method: 'POST',
      url: '/teams/addUser',
      payload: { teamId: own.teamId, userId: other.userIds.viewer },
    }),
    expect: teamManagers,
  },
  {
    endpoint: 'DELETE /teams/removeUser',
    label: "a member of another company's team",
    request: (_own, other) => ({
      method: 'DELETE',
      url: '/teams/removeUser',
      payload: { teamId: other.teamId, userId: other.userIds.viewer },
    }),
    expect: everyone404,
  },
  {
    endpoint: 'DELETE /teams/removeUser',
    label: "another company's user from the own team",
    request: (own, other) => ({
      method: 'DELETE',
      url: '/teams/removeUser',
      payload: { teamId: own.teamId, userId: other.userIds.viewer },
    }),
    expect: teamManagers,
  },
  {
    endpoint: 'DELETE /teams/delete',
    label: "another company's team",
    request: (_own, other) => ({
      method: 'DELETE',
      url: '/teams/delete',
      payload: { teamId: other.teamId },
    }),
    expect: everyone404,
  },
  {
    endpoint: 'POST /roles/updateUserRoleForTeam',
    label: "a role in another company's team",
    request: (_own, other) => ({
      method: 'POST',
      url: '/roles/updateUserRoleForTeam',
      payload: { teamId: other.teamId, userId: other.userIds.viewer, roleId: ROLE.manager },
    }),
    expect: everyone404,
  },
  {
    endpoint: 'POST /roles/updateUserRoleForTeam',
    label: "another company's user's role in the own team",
    request: (own, other) => ({
      method: 'POST',
      url: '/roles/updateUserRoleForTeam',
      payload: { teamId: own.teamId, userId: other.userIds.viewer, roleId: ROLE.manager },
    }),
    expect: teamManagers,
  },
  {
    endpoint: 'GET /permissions/list/:id',
    label: "another company's team",
    request: (_own, other) => ({ method: 'GET', url: `/permissions/list/${other.teamId}` }),
    expect: everyone404,
  },
  {
    endpoint: 'POST /permissions/assign',
    label: "on another company's team",
    request: (_own, other) => ({
      method: 'POST',
      url: '/permissions/assign',
      payload: {
        teamId: other.teamId,
        assignments: [{ userId: other.userIds.viewer, roleId: ROLE.manager }],
      },
    }),
    expect: everyone404,
  },
  {
    endpoint: 'POST /permissions/assign',
    label: "for another company's user on the own team",
    request: (own, other) => ({
      method: 'POST',
      url: '/permissions/assign',
      payload: {
        teamId: own.teamId,
        assignments: [{ userId: other.userIds.viewer, roleId: ROLE.manager }],
      },
    }),
    expect: teamManagers,
  },
  ...vmCases(),
  ...networkCases(),
  ...resellerCases(),
  ...ownAccountCases(),
];

/**
 * A user's own SSH keys, passkeys and sessions, by another company's id: not found for anyone,
 * an Admin included (an Admin does not see even their own company's users' keys). The passkey
 * and session routes refuse API tokens (api-tokens-viewer tests).
 */
function ownAccountCases(): IsolationCase[] {
  return [
    {
      endpoint: 'DELETE /sshKeys/delete/:id',
      label: "another company's Admin's SSH key",
      request: (_own, other) => ({ method: 'DELETE', url: `/sshKeys/delete/${other.sshKeyId}` }),
      expect: everyone404,
    },
    {
      endpoint: 'PUT /auth/passkeys/rename/:id',
      label: "another company's Admin's passkey",
      request: (_own, other) => ({
        method: 'PUT',
        url: `/auth/passkeys/rename/${other.passkeyId}`,
        payload: { name: 'Hacked' },
      }),
      expect: everyone404,
    },
    {
      endpoint: 'DELETE /auth/passkeys/delete/:id',
      label: "another company's Admin's passkey",
      request: (_own, other) => ({
        method: 'DELETE',
        url: `/auth/passkeys/delete/${other.passkeyId}`,
      }),
      expect: everyone404,
    },
    {
      endpoint: 'DELETE /sessions/delete/:id',
      label: "ending another company's Admin's session",
      request: (_own, other) => ({ method: 'DELETE', url: `/sessions/delete/${other.sessionId}` }),
      expect: everyone404,
    },
    {
      endpoint: 'POST /sessions/deleteAll/:userId',
      label: "ending every session of another company's user",
      request: (_own, other) => ({
        method: 'POST',
        url: `/sessions/deleteAll/${other.userIds.viewer}`,
      }),
      expect: adminOnly,
    },
  ];
}

/**
 * The reseller's console, to users of customer companies (every role here): not there for them,
 * whatever company it names, and nothing is created (the reseller-customers suites hold the
 * reseller's staff to their own customers).
 */
function resellerCases(): IsolationCase[] {
  return [
    {
      endpoint: 'GET /reseller/companies/list',
      label: "the reseller's customers, to a customer",
      request: () => ({ method: 'GET', url: '/reseller/companies/list' }),
      expect: everyone404,
    },
    {
      endpoint: 'GET /reseller/companies/details/:id',
      label: 'another company, as a customer of the reseller',
      request: (_own, other) => ({
        method: 'GET',
        url: `/reseller/companies/details/${other.companyId}`,
      }),
      expect: everyone404,
    },
    {
      endpoint: 'GET /reseller/companies/activity/:id',
      label: "another company's activity, through the reseller",
      request: (_own, other) => ({
        method: 'GET',
        url: `/reseller/companies/activity/${other.companyId}`,
      }),
      expect: everyone404,
    },
    {
      endpoint: 'PUT /reseller/companies/limits/:id',
      label: "its own and another company's limits, through the reseller",
      request: (_own, other) => ({
        method: 'PUT',
        url: `/reseller/companies/limits/${other.companyId}`,
        payload: { limits: [{ resource: 'vms', regionId: null, max: 1_000_000 }] },
      }),
      expect: everyone404,
    },
    {
      endpoint: 'POST /reseller/companies/create',
      label: 'a company next to its own, through the reseller',
      request: () => ({
        method: 'POST',
        url: '/reseller/companies/create',
        payload: {
          name: 'Intruder Co',
          admin: { email: 'intruder@elsewhere.test', firstName: 'In', lastName: 'Truder' },
        },
      }),
      expect: everyone404,
    },
    {
      endpoint: 'GET /reseller/settings',
      label: "the reseller's settings, to a customer",
      request: () => ({ method: 'GET', url: '/reseller/settings' }),
      expect: everyone404,
    },
    {
      endpoint: 'PUT /reseller/settings',
      label: "the reseller's brand and domains, changed by a customer",
      request: () => ({
        method: 'PUT',
        url: '/reseller/settings',
        payload: {
          brandName: 'Hijacked',
          logoUrl: null,
          tabLogoUrl: null,
          primaryColor: null,
          supportEmail: 'intruder@elsewhere.test',
          orderUrls: { newCustomer: null, accountChanges: null },
          domains: [],
        },
      }),
      expect: everyone404,
    },
    ...(['suspend', 'resume'] as const).map((verb): IsolationCase => ({
      endpoint: `POST /reseller/companies/${verb}/:id`,
      label: `${verb} another company, through the reseller`,
      request: (_own, other) => ({
        method: 'POST',
        url: `/reseller/companies/${verb}/${other.companyId}`,
      }),
      expect: everyone404,
    })),
    {
      endpoint: 'GET /reseller/usage',
      label: "another company's usage for billing, through the reseller",
      request: (_own, other) => ({
        method: 'GET',
        url: `/reseller/usage?month=2026-11&format=csv&companyId=${other.companyId}`,
      }),
      expect: everyone404,
    },
  ];
}

/** Every network and interface route that takes an id, with another company's. */
function networkCases(): IsolationCase[] {
  const get = (route: string, id: (t: Tenant) => number, label: string): IsolationCase => ({
    endpoint: `GET /networks/${route}`,
    label,
    request: (_own, other) => ({
      method: 'GET',
      url: `/networks/${route.replace(':id', String(id(other)))}`,
    }),
    expect: everyone404,
  });
  return [
    get(':id', (t) => t.networkId, "another company's network"),
    get(':id/vmsForNetwork', (t) => t.networkId, "another company's network's VMs"),
    get('listNetAdapters/:id', (t) => t.vmId, "another company's VM's interfaces"),
    {
      endpoint: 'PUT /networks/update/:id',
      label: "editing another company's network",
      request: (_own, other) => ({
        method: 'PUT',
        url: `/networks/update/${other.networkId}`,
        payload: { name: 'hacked', cidrBlock: '10.9.0.0/24', networkType: 'custom' },
      }),
      expect: everyone404,
    },
    {
      endpoint: 'DELETE /networks/delete/:id',
      label: "another company's network",
      request: (_own, other) => ({ method: 'DELETE', url: `/networks/delete/${other.networkId}` }),
      expect: everyone404,
    },
    {
      endpoint: 'POST /networks/allocatePublicIp/:id',
      label: "on another company's interface",
      request: (_own, other) => ({
        method: 'POST',
        url: `/networks/allocatePublicIp/${other.interfaceId}`,
      }),
      expect: everyone404,
    },
    {
      endpoint: 'DELETE /networks/releasePublicIp/:id',
      label: "of another company's interface",
      request: (_own, other) => ({
        method: 'DELETE',
        url: `/networks/releasePublicIp/${other.interfaceId}`,
      }),
      expect: everyone404,
    },
    {
      endpoint: 'GET /virtualMachines/:id/availableNetworks',
      label: "another company's VM",
      request: (_own, other) => ({
        method: 'GET',
        url: `/virtualMachines/${other.vmId}/availableNetworks`,
      }),
      expect: everyone404,
    },
    {
      endpoint: 'POST /virtualMachines/:id/addNetworkInterfaces',
      label: "another company's VM",
      request: (own, other) => ({
        method: 'POST',
        url: `/virtualMachines/${other.vmId}/addNetworkInterfaces`,
        payload: { networkId: own.networkId },
      }),
      expect: everyone404,
    },
    {
      endpoint: 'POST /virtualMachines/:id/addNetworkInterfaces',
      label: "another company's network on the own VM",
      request: (own, other) => ({
        method: 'POST',
        url: `/virtualMachines/${own.vmId}/addNetworkInterfaces`,
        payload: { networkId: other.networkId },
      }),
      expect: vmEditors,
    },
    {
      endpoint: 'DELETE /virtualMachines/:id/removeNetworkInterfaces/:networkId',
      label: "another company's VM",
      request: (_own, other) => ({
        method: 'DELETE',
        url: `/virtualMachines/${other.vmId}/removeNetworkInterfaces/${other.networkId}`,
      }),
      expect: everyone404,
    },
    {
      endpoint: 'DELETE /virtualMachines/:id/removeNetworkInterfaces/:networkId',
      label: "another company's network from the own VM",
      request: (own, other) => ({
        method: 'DELETE',
        url: `/virtualMachines/${own.vmId}/removeNetworkInterfaces/${other.networkId}`,
      }),
      expect: vmEditors,
    },
  ];
}

/** Every VM route that takes an id, with another company's VM or team. */
function vmCases(): IsolationCase[] {
  const byVm = (method: Method, route: string): IsolationCase => ({
    endpoint: `${method} /virtualMachines/${route}/:id`,
    label: "another company's VM",
    request: (_own, other) => ({ method, url: `/virtualMachines/${route}/${other.vmId}` }),
    expect: everyone404,
  });
  return [
    byVm('GET', 'details'),
    byVm('GET', 'getPassword'),
    byVm('GET', 'getAccessKey'),
    byVm('GET', 'getConsole'),
    byVm('POST', 'start'),
    byVm('POST', 'stop'),
    byVm('POST', 'reset'),
    byVm('DELETE', 'delete'),
    {
      endpoint: 'GET /virtualMachines/list',
      label: "scoped to another company's team",
      request: (_own, other) => ({
        method: 'GET',
        url: `/virtualMachines/list?teamId=${other.teamId}`,
      }),
      expect: everyone404,
    },
    {
      endpoint: 'GET /virtualMachines/fetchVirtualMachineConfigurations/:regionId',
      label: "upgrade sizes of another company's VM",
      request: (_own, other) => ({
        method: 'GET',
        url: `/virtualMachines/fetchVirtualMachineConfigurations/${other.order.regionId}?vmId=${other.vmId}`,
      }),
      expect: everyone404,
    },
    {
      endpoint: 'POST /virtualMachines/create',
      label: "into another company's team",
      request: (own, other) => ({
        method: 'POST',
        url: '/virtualMachines/create',
        payload: { ...own.order, name: 'intruder', numberOfInstances: 1, teamId: other.teamId },
      }),
      expect: everyone404,
    },
    {
      endpoint: 'POST /virtualMachines/reinstall/:id',
      label: "reinstalling another company's VM",
      request: (_own, other) => ({
        method: 'POST',
        url: `/virtualMachines/reinstall/${other.vmId}`,
        payload: { imageId: other.order.imageId },
      }),
      expect: everyone404,
    },
    {
      endpoint: 'GET /virtualMachines/snapshots/list/:vmId',
      label: "another company's VM's snapshots",
      request: (_own, other) => ({
        method: 'GET',
        url: `/virtualMachines/snapshots/list/${other.vmId}`,
      }),
      expect: everyone404,
    },
    {
      endpoint: 'POST /virtualMachines/snapshots/create/:vmId',
      label: "a snapshot of another company's VM",
      request: (_own, other) => ({
        method: 'POST',
        url: `/virtualMachines/snapshots/create/${other.vmId}`,
        payload: { name: 'intruder' },
      }),
      expect: everyone404,
    },
    {
      endpoint: 'POST /virtualMachines/snapshots/restore/:snapshotId',
      label: "restoring another company's snapshot",
      request: (_own, other) => ({
        method: 'POST',
        url: `/virtualMachines/snapshots/restore/${other.snapshotId}`,
      }),
      expect: everyone404,
    },
    {
      endpoint: 'DELETE /virtualMachines/snapshots/delete/:snapshotId',
      label: "deleting another company's snapshot",
      request: (_own, other) => ({
        method: 'DELETE',
        url: `/virtualMachines/snapshots/delete/${other.snapshotId}`,
      }),
      expect: everyone404,
    },
    {
      endpoint: 'GET /virtualMachines/listImages/:id',
      label: "reinstall images of another company's VM",
      request: (_own, other) => ({
        method: 'GET',
        url: `/virtualMachines/listImages/${other.order.regionId}?vmId=${other.vmId}`,
      }),
      expect: everyone404,
    },
    {
      endpoint: 'PUT /virtualMachines/changeConfiguration',
      label: "upgrading another company's VM",
      request: (_own, other) => ({
        method: 'PUT',
        url: '/virtualMachines/changeConfiguration',
        payload: { id: other.vmId, configurationId: 6 },
      }),
      expect: everyone404,
    },
    {
      endpoint: 'PUT /virtualMachines/edit/:id',
      label: "renaming another company's VM",
      request: (_own, other) => ({
        method: 'PUT',
        url: `/virtualMachines/edit/${other.vmId}`,
        payload: { name: 'hacked' },
      }),
      expect: everyone404,
    },
    {
      endpoint: 'PUT /virtualMachines/edit/:id',
      label: "moving the own VM into another company's team",
      request: (own, other) => ({
        method: 'PUT',
        url: `/virtualMachines/edit/${own.vmId}`,
        payload: { teamId: other.teamId },
      }),
      expect: teamManagers,
    },
  ];
}

/**
 * Routes that take no id of a company's data, each with the reason. A new route must appear
 * either here or in the cases above, or the suite fails.
 */
export const routesWithoutCompanyIds: Record<string, string> = {
  'GET /healthCheck/api': 'public liveness, no data',
  'GET /limits': "no id; the caller's own company's limits (limits-overview tests)",
  'GET /openapi.json': 'public; the API document, no data',
  'GET /healthCheck/database': 'public database check, no data',
  'GET /healthCheck/ready': "public readiness of the process, no company's data",
  'POST /auth/login': "public; an e-mail and password, answers only the account's own session",
  'POST /auth/mfa': "the caller's own session",
  'POST /auth/logout': "the caller's own session",
  'DELETE /auth/logout': "the caller's own session",
  'GET /auth/check': "the caller's own session",
  'POST /auth/refreshAuth': "the caller's own session",
  'POST /auth/shouldResetPassword': "the caller's own session",
  'GET /users/me': "the caller's own account",
  'POST /webhooks/create': "a webhook of the caller's own company",
  'GET /webhooks/list': "no id; the caller's own company's webhooks (webhooks-api tests)",
  'POST /users/updatePassword': "the caller's own account",
  'POST /users/forgotPassword': 'public; answers alike for every address',
  'POST /users/register': 'public; answers alike for every address',
  'POST /users/resetPasswordFromEmail/:token':
    'public; the e-mailed single-use token decides, not a session (password-reset tests)',
  'POST /users/confirmEmail/:token':
    'public; the e-mailed single-use token decides, not a session (activation tests)',
  'GET /teams/list': "no id; the suite checks it never lists the other company's teams",
  'GET /events':
    "no id; the stream's own isolation suite (events-isolation) checks no other company's or team's event arrives",
  'GET /roles/userRoles': 'the fixed roles, the same for every company',
  'POST /imports/distributer': 'operator token only; a user session is refused (imports tests)',
  'POST /imports/reseller': 'operator token only; a user session is refused (imports tests)',
  'POST /imports/company': 'operator token only; a user session is refused (imports tests)',
  'POST /sim/faults': 'operator token only; the embedded engine of this process (events tests)',
  'DELETE /sim/faults': 'operator token only; the embedded engine of this process (events tests)',
  'GET /virtualMachines/listCountries': 'the shared catalogue, the same for every company',
  'GET /virtualMachines/listRegions/:id': 'the shared catalogue, the same for every company',
  'GET /virtualMachines/listCities/:id': 'the shared catalogue, the same for every company',
  'GET /virtualMachines/listCombinedRegions': 'the shared catalogue, the same for every company',
  'GET /virtualMachines/getRegion/:id': 'the shared catalogue, the same for every company',
  'GET /virtualMachines/listImages/:id': 'the shared catalogue, the same for every company',
  'GET /virtualMachines/listConfigurations': 'the shared catalogue, the same for every company',
  'GET /virtualMachines/listProviders/:regionId':
    'the shared catalogue, the same for every company',
  'GET /virtualMachines/GetDashboardData':
    "no id; counts the caller's company only (dashboard tests)",
  'GET /dashboard/summary': "no id; counts the caller's company only (dashboard-summary tests)",
  'GET /healthCheck/remoteAPI': 'public reachability of the provider engines, no company data',
  'GET /debug/debugSharktech':
    "Admins only; no id; counts the caller's company only (diagnostics tests)",
  'GET /networks/list': "no id; the suite checks it never lists the other company's networks",
  'GET /networks/getCIDRDetails':
    "checks overlaps with the caller's own networks only; networkId only leaves one out",
  'POST /networks/create': "takes no company id; the network is the caller's company's",
  'POST /support/sendEmail': "takes no id; the caller's own account and company (support tests)",
  'POST /logging': 'public; browser error reports, only logged: no data is read or written',
  'POST /sshKeys/create': "takes no id; the key is the caller's own (ssh-keys tests)",
  'GET /sshKeys/list': "no id; the caller's own keys only, an Admin's too (ssh-keys tests)",
  'POST /auth/passkeys/createOptions': "the caller's own session and account",
  'POST /auth/passkeys/create':
    "the caller's own account; a credential made for another user is refused (passkeys tests)",
  'GET /auth/passkeys/list': "no id; the caller's own passkeys (passkeys tests)",
  'POST /auth/passkeys/mfaOptions': "the caller's own session, still waiting for its second step",
  'POST /auth/passkeys/mfa':
    "the caller's own session; only the user's own passkeys answer (passkeys tests)",
  'POST /auth/passkeys/loginOptions': 'public; a challenge to answer, no data',
  'POST /auth/passkeys/login':
    "public; only a registered passkey's answer signs in, into its own account (passkeys tests)",
  'GET /auth/secondFactor': "the caller's own account",
  'POST /auth/totp/enroll': "the caller's own account",
  'POST /auth/totp/confirm': "the caller's own account",
  'POST /auth/totp/disable': "the caller's own account",
  'GET /company/secondFactorPolicy': "no id; the caller's own company's policy",
  'PUT /company/secondFactorPolicy':
    "no id; Admins only, the caller's own company's policy (second-factor-policy tests)",
  'GET /sessions/list': "no id; the caller's own sessions (session-list tests)",
  'POST /sessions/deleteOthers': "the caller's own sessions (session-list tests)",
};
