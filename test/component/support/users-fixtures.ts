import { waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import type { Role } from '../../../src/api/contract/roles';
import type {
  EditUserBody,
  UserDetails,
  UserRow,
  UserTeamRow,
} from '../../../src/api/contract/users';
import type { RemoveTeamUserBody, TeamRow } from '../../../src/api/contract/teams';
import type { UpdateUserRoleForTeamBody } from '../../../src/api/contract/roles';
import { aUser } from './fixtures';
import { expect } from 'vitest';
import { api, fail, http, ok, server } from './msw';
import { aSecondFactorStatus } from './second-factor-fixtures';

/** The four roles as `GET /roles/userRoles` sends them. */
export const ROLES: Role[] = [
  { id: 1, name: 'Admin', info: 'Full access to everything in the company.' },
  { id: 2, name: 'Manager', info: 'Manages the team: its members, their roles and its VMs.' },
  { id: 3, name: 'Operator', info: "Creates and operates the team's virtual machines." },
  { id: 4, name: 'Viewer', info: 'Can see the team and its resources, change nothing.' },
];

/** A users/list row as the API sends it. */
export const aRow = (id: number, overrides: Partial<Omit<UserRow, 'createdAt'>> = {}) => ({
  id,
  firstName: `First${id}`,
  lastName: `Last${id}`,
  email: `user${id}@example.com`,
  createdAt: '2026-01-02T03:04:05.000Z',
  isAdmin: false,
  ...overrides,
});

/** A users/details answer (dates as ISO strings on the wire). */
export const aUserDetails = (overrides: Partial<Omit<UserDetails, 'createdAt'>> = {}) => ({
  id: 3,
  firstName: 'Grace',
  lastName: 'Hopper',
  email: 'grace@example.com',
  createdAt: '2025-03-04T12:00:00.000Z',
  isAdmin: false,
  activated: true,
  ...overrides,
});

export const aTeam = (id: number, name: string): TeamRow => ({
  id,
  name,
  userCount: 1,
  vmCount: 0,
});

/** Who is signed in: Ada (id 7), an Admin unless told otherwise. */
export const signedInAs = (overrides: Parameters<typeof aUser>[0] = {}) =>
  server.use(http.get(api('auth/check'), () => ok({ user: aUser(overrides) })));

export const serveRoles = () => server.use(http.get(api('roles/userRoles'), () => ok(ROLES)));

/** `GET /teams/list`, one page of the given teams; records the query strings. */
export function serveTeams(teams: TeamRow[]) {
  const queries: Record<string, string>[] = [];
  server.use(
    http.get(api('teams/list'), ({ request }) => {
      const params = new URL(request.url).searchParams;
      queries.push(Object.fromEntries(params));
      // The server searches the names, whatever their case.
      const search = (params.get('search') ?? '').toLowerCase();
      const data = teams.filter((team) => team.name.toLowerCase().includes(search));
      return ok({ data, unassignedUsers: 0, unassignedVMs: 0, totalPages: 1 });
    }),
  );
  return { queries };
}

/** Waits for `release()`: lets a test look at the screen while a request is on its way. */
export function gate() {
  let release!: () => void;
  const promise = new Promise<void>((resolve) => (release = resolve));
  return { promise, release };
}

interface UserServerOptions {
  /** The users the server knows (details), by id. */
  users?: ReturnType<typeof aUserDetails>[];
  /** Team memberships by user id. */
  memberships?: Record<number, UserTeamRow[]>;
}

/**
 * A small fake of the user page's API: details, memberships (paged 6 a page by the query, searched
 * by team name), edits, role changes and removals, recording what the console sends. Signed-in
 * user: `aUser()` (id 7) updated by edits of id 7, so the sidebar can follow.
 */
export function serveUserPage({ users = [aUserDetails()], memberships = {} }: UserServerOptions) {
  const directory = new Map(users.map((u) => [u.id, { ...u }]));
  const teamsOf = new Map(
    Object.entries(memberships).map(([id, rows]) => [Number(id), rows.map((r) => ({ ...r }))]),
  );
  const me = { ...aUser(), ...directory.get(7) };
  const sent = {
    teamQueries: [] as Record<string, string>[],
    edits: [] as EditUserBody[],
    roleUpdates: [] as UpdateUserRoleForTeamBody[],
    removals: [] as RemoveTeamUserBody[],
    detailRequests: [] as number[],
  };
  serveRoles();
  server.use(
    http.get(api('auth/check'), () => ok({ user: me })),
    http.get(api('users/details/:id'), ({ params }) => {
      const id = Number(params.id);
      sent.detailRequests.push(id);
      const found = directory.get(id);
      return found ? ok(found) : fail(404, 'User not found');
    }),
    // The API tokens section has tests of its own (api-tokens-fixtures.ts).
    http.get(api('apiTokens/list'), () => ok([])),
    // So do the Sessions (sessions.test.tsx).
    http.get(api('sessions/list'), () => ok([])),
    // And the Security section (security.test.tsx): no app, no passkey.
    http.get(api('auth/secondFactor'), () => ok(aSecondFactorStatus())),
    // And the SSH keys (ssh-keys.test.tsx).
    http.get(api('sshKeys/list'), () => ok([])),
    // And the passkeys (passkeys.test.tsx).
    http.get(api('auth/passkeys/list'), () => ok([])),
    http.get(api('users/teams/:id'), ({ request, params }) => {
      const query = Object.fromEntries(new URL(request.url).searchParams);
      sent.teamQueries.push(query);
      const page = Number(query.page ?? 1);
      const size = Number(query.rowsPerPage ?? 6);
      const search = (query.search ?? '').toLowerCase();
      const rows = (teamsOf.get(Number(params.id)) ?? []).filter((r) =>
        r.name.toLowerCase().includes(search),
      );
      return ok({
        data: rows.slice((page - 1) * size, page * size),
        totalPages: Math.max(1, Math.ceil(rows.length / size)),
      });
    }),
    http.post(api('users/edit'), async ({ request }) => {
      const body = (await request.json()) as EditUserBody;
      sent.edits.push(body);
      const found = directory.get(Number(body.id));
      if (!found) return fail(404, 'User not found');
      Object.assign(found, { firstName: body.firstName, lastName: body.lastName });
      if (Number(body.id) === me.id) Object.assign(me, found);
      return ok(null, 'User updated successfully');
    }),
    http.post(api('roles/updateUserRoleForTeam'), async ({ request }) => {
      const body = (await request.json()) as UpdateUserRoleForTeamBody;
      sent.roleUpdates.push(body);
      const row = teamsOf.get(Number(body.userId))?.find((r) => r.id === body.teamId);
      if (row) row.roleId = Number(body.roleId);
      return ok(null, 'User role updated');
    }),
    http.delete(api('teams/removeUser'), async ({ request }) => {
      const body = (await request.json()) as RemoveTeamUserBody;
      sent.removals.push(body);
      const rows = teamsOf.get(Number(body.userId)) ?? [];
      teamsOf.set(
        Number(body.userId),
        rows.filter((r) => r.id !== body.teamId),
      );
      return ok(null, 'User removed from team');
    }),
  );
  return { sent, directory, teamsOf };
}

/** Memberships named Team 11, Team 12, … with the given role ids in turn. */
export const memberships = (count: number, roleIds: number[] = [2, 3, 4]): UserTeamRow[] =>
  Array.from({ length: count }, (_, i) => ({
    id: 11 + i,
    name: `Team ${11 + i}`,
    roleId: roleIds[i % roleIds.length]!,
  }));

/**
 * The options of an open dropdown. Mantine hides a dropdown whose input it cannot see, and the
 * test DOM lays nothing out: the options are found by the listbox the input controls, hidden or not.
 */
export async function optionsOf(input: HTMLElement) {
  await waitFor(() => expect(input).toHaveAttribute('aria-controls'));
  const listbox = document.getElementById(input.getAttribute('aria-controls')!)!;
  return within(listbox).queryAllByRole('option', { hidden: true });
}

/** Opens a dropdown and picks an option by its label. */
export async function pick(user: UserEvent, input: HTMLElement, label: string) {
  await user.click(input);
  const option = (await optionsOf(input)).find((o) => o.textContent === label);
  if (!option)
    throw new Error(
      `No option "${label}" in ${input.getAttribute('aria-label') ?? 'the dropdown'}`,
    );
  await user.click(option);
}
