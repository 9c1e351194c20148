import { ROLE } from '../../../src/api/contract/roles';
import type { CallerRole, Tenant } from './tenants';

type Status = 403 | 404;
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
    method: 'GET' | 'POST' | 'PUT' | 'DELETE';
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

export const isolationCases: IsolationCase[] = [
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
];

/**
 * Routes that take no id of a company's data, each with the reason. A new route must appear
 * either here or in the cases above, or the suite fails.
 */
export const routesWithoutCompanyIds: Record<string, string> = {
  'GET /healthCheck/api': 'public liveness, no data',
  'GET /healthCheck/database': 'public readiness, no data',
  'POST /auth/login': "public; an e-mail and password, answers only the account's own session",
  'POST /auth/mfa': "the caller's own session",
  'POST /auth/logout': "the caller's own session",
  'DELETE /auth/logout': "the caller's own session",
  'GET /auth/check': "the caller's own session",
  'POST /auth/refreshAuth': "the caller's own session",
  'POST /auth/shouldResetPassword': "the caller's own session",
  'GET /users/me': "the caller's own account",
  'POST /users/updatePassword': "the caller's own account",
  'POST /users/forgotPassword': 'public; answers alike for every address',
  'POST /users/register': 'public; answers alike for every address',
  'POST /users/resetPasswordFromEmail/:token':
    'public; the e-mailed single-use token decides, not a session (password-reset tests)',
  'POST /users/confirmEmail/:token':
    'public; the e-mailed single-use token decides, not a session (activation tests)',
  'GET /teams/list': "no id; the suite checks it never lists the other company's teams",
  'GET /roles/userRoles': 'the fixed roles, the same for every company',
  'POST /imports/distributer': 'operator token only; a user session is refused (imports tests)',
  'POST /imports/reseller': 'operator token only; a user session is refused (imports tests)',
  'POST /imports/company': 'operator token only; a user session is refused (imports tests)',
  'POST /support/sendEmail': "takes no id; the caller's own account and company (support tests)",
  'POST /logging': 'public; browser error reports, only logged: no data is read or written',
};
