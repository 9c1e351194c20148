import { screen, within } from '@testing-library/react';
import type { TeamMember, TeamRow } from '../../../src/api/contract/teams';
import type { UserRow } from '../../../src/api/contract/users';
import type { User } from '../../../src/api/contract/auth';
import { aUser } from './fixtures';
import { api, fail, http, ok, server } from './msw';

/** The roles of `GET /roles/userRoles`. */
export const ROLES = [
  { id: 1, name: 'Admin', info: 'Full access to the company' },
  { id: 2, name: 'Manager', info: 'Manages the team' },
  { id: 3, name: 'Operator', info: 'Operates the team VMs' },
  { id: 4, name: 'Viewer', info: 'Read only' },
];

/** A request body or query string a handler received. */
export type Recorded = Record<string, unknown>;

/** Releases held answers; see `gate()`. */
export function gate() {
  let held: Promise<void> | undefined;
  let release = () => {};
  return {
    wait: () => held,
    hold() {
      held = new Promise<void>((resolve) => (release = resolve));
      return () => {
        held = undefined;
        release();
      };
    },
  };
}

/** The signed-in user (an Admin unless told otherwise) and the roles. */
export function signIn(overrides: Partial<User> = {}) {
  server.use(
    http.get(api('auth/check'), () => ok({ user: aUser(overrides) })),
    http.get(api('roles/userRoles'), () => ok(ROLES)),
  );
}

export const aTeam = (id: number, overrides: Partial<TeamRow> = {}): TeamRow => ({
  id,
  name: `Team ${id}`,
  userCount: id,
  vmCount: id * 2,
  ...overrides,
});

const pageOf = <T>(all: T[], params: URLSearchParams) => {
  const page = Number(params.get('page'));
  const size = Number(params.get('rowsPerPage'));
  return {
    data: all.slice((page - 1) * size, page * size),
    totalPages: Math.max(1, Math.ceil(all.length / size)),
  };
};

/**
 * Serves teams/list from `teams` (25 by default), filtered by name on `search`, and records every
 * query string.
 */
export function serveTeams({
  teams = Array.from({ length: 25 }, (_, i) => aTeam(i + 1)),
  unassignedUsers = 3,
  unassignedVMs = 4,
}: { teams?: TeamRow[]; unassignedUsers?: number; unassignedVMs?: number } = {}) {
  const queries: Recorded[] = [];
  const held = gate();
  let all = teams;
  server.use(
    http.get(api('teams/list'), async ({ request }) => {
      const params = new URL(request.url).searchParams;
      queries.push(Object.fromEntries(params));
      await held.wait();
      const search = params.get('search') ?? '';
      const rows = all.filter((team) => team.name.toLowerCase().includes(search.toLowerCase()));
      return ok({ ...pageOf(rows, params), unassignedUsers, unassignedVMs });
    }),
  );
  return {
    queries,
    last: () => queries.at(-1),
    hold: held.hold,
    /** What the next answers hold (after a change on the server). */
    setTeams: (next: TeamRow[]) => (all = next),
  };
}

export const aMember = (id: number, overrides: Partial<TeamMember> = {}): TeamMember => ({
  id,
  name: `Member ${id}`,
  email: `member${id}@example.com`,
  roleId: 4,
  ...overrides,
});

/**
 * Serves `GET /teams/{id}` for one team, 5 members a page, filtered by name on `search`; any
 * other id answers 404 'Team not found'. The team's VMs list is empty.
 */
export function serveTeam({
  id = 5,
  name = 'Platform',
  members = Array.from({ length: 12 }, (_, i) => aMember(100 + i + 1)),
  yourRoleId = 1,
}: { id?: number; name?: string; members?: TeamMember[]; yourRoleId?: number } = {}) {
  const queries: Recorded[] = [];
  const held = gate();
  let current = { name, members };
  server.use(
    // The team page also lists the team's VMs: none, unless a test serves some (serveVms).
    http.get(api('virtualMachines/list'), () => ok({ data: [], totalPages: 1 })),
    http.get(api('teams/:id'), async ({ request, params }) => {
      // Not a team id (teams/list): leave it to its own handler.
      if (!/^\d+$/.test(String(params.id))) return undefined;
      if (Number(params.id) !== id) return fail(404, 'Team not found');
      const search = new URL(request.url).searchParams;
      queries.push(Object.fromEntries(search));
      await held.wait();
      const text = (search.get('search') ?? '').toLowerCase();
      const rows = current.members.filter((member) => member.name.toLowerCase().includes(text));
      const { data, totalPages } = pageOf(rows, search);
      return ok({
        id,
        teamName: current.name,
        parentTeamId: null,
        yourRoleId,
        members: data,
        totalPages,
      });
    }),
  );
  return {
    queries,
    last: () => queries.at(-1),
    hold: held.hold,
    /** What the next answers hold (after a change on the server). */
    set: (patch: Partial<typeof current>) => (current = { ...current, ...patch }),
  };
}

/** A users/list row as the API sends it. */
export const aUserRow = (id: number, overrides: Partial<Omit<UserRow, 'createdAt'>> = {}) => ({
  id,
  firstName: `First${id}`,
  lastName: `Last${id}`,
  email: `user${id}@example.com`,
  createdAt: '2026-01-02T03:04:05.000Z',
  isAdmin: false,
  ...overrides,
});

/** Serves users/list (for Available Users), 10 a page, and records every query string. */
export function serveUsers(users = Array.from({ length: 12 }, (_, i) => aUserRow(i + 1))) {
  const queries: Recorded[] = [];
  let all = users;
  server.use(
    http.get(api('users/list'), ({ request }) => {
      const params = new URL(request.url).searchParams;
      queries.push(Object.fromEntries(params));
      return ok(pageOf(all, params));
    }),
  );
  return {
    queries,
    last: () => queries.at(-1),
    set: (next: ReturnType<typeof aUserRow>[]) => (all = next),
  };
}

/** Records the JSON bodies a mutation endpoint receives and answers with `answer`. */
export function recordBodies(
  method: 'post' | 'delete',
  path: string,
  answer: () => Response | Promise<Response> = () => ok(null),
) {
  const bodies: Recorded[] = [];
  const held = gate();
  server.use(
    http[method](api(path), async ({ request }) => {
      bodies.push((await request.json()) as Recorded);
      await held.wait();
      return answer();
    }),
  );
  return { bodies, hold: held.hold };
}

/** The body rows of the table with this accessible title (the DataTable's heading). */
export function rowsOf(table: HTMLElement) {
  return within(table).getAllByRole('row').slice(1);
}

/** The table inside the card headed `title`. */
export function tableTitled(title: string) {
  const heading = screen.getByRole('heading', { level: 3, name: title });
  const card = heading.closest('.mantine-Paper-root') as HTMLElement;
  return within(card).getByRole('table');
}
