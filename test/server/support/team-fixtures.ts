import type { Writable } from 'node:stream';
import { and, asc, eq } from 'drizzle-orm';
import { teamMembers, teams } from '../../../server/db/schema';
import { virtualMachines } from '../../../server/db/vm-schema';
import { ROLE } from '../../../src/api/contract/roles';
import type { testClock } from './harness';
import type { EventStreamCaps } from '../../../server/domain/events/streams';
import type { SimTimings } from '../../../server/providers/sim/driver';
import { startTestServer } from './harness';
import { addTeamMember, createCompany, createTeam, createUser } from './seed';
import { bearer, signIn } from './sign-in';

/**
 * The company the team suites work in: an Admin, a Manager, an Operator and a Viewer of team Alpha,
 * and an outsider who belongs to no team, each signed in; plus another company with its own team
 * and user, whose ids must answer exactly like ids that do not exist.
 */

export const callers = ['admin', 'manager', 'operator', 'viewer', 'outsider'] as const;
export type Who = (typeof callers)[number];

const people: Record<Who, { firstName: string; lastName: string; isAdmin?: boolean }> = {
  admin: { firstName: 'Ada', lastName: 'Admin', isAdmin: true },
  manager: { firstName: 'Mia', lastName: 'Manager' },
  operator: { firstName: 'Otto', lastName: 'Operator' },
  viewer: { firstName: 'Vera', lastName: 'Viewer' },
  outsider: { firstName: 'Olga', lastName: 'Outsider' },
};

export const alphaRoles = { manager: ROLE.manager, operator: ROLE.operator, viewer: ROLE.viewer };

export const NOT_FOUND = { data: null, message: 'Team not found' };
export const FORBIDDEN = { data: null, message: 'You do not have permission to do that' };
export const ADMINS_ONLY = { data: null, message: 'Only Admins can do that' };
export const NOT_MEMBER = { data: null, message: 'The user is not a member of this team' };

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** The answers are `res.json()` as light-my-request types it: tests check them by value. */
export type TeamWorld = Awaited<ReturnType<typeof startTeamWorld>>;

export interface WorldOptions {
  clock?: ReturnType<typeof testClock>;
  /** Settings of the server (environment variables). */
  env?: Record<string, string>;
  /** Where the server and its reconciler log (nowhere when unset). */
  logStream?: Writable;
  /** Lower caps of the event streams. */
  eventStreamCaps?: Partial<EventStreamCaps>;
  /** The process's own figures in /metrics. */
  processMetrics?: boolean;
  /** How long the engine's tasks take (support/harness.ts). */
  simTimings?: SimTimings;
}

export async function startTeamWorld(options: WorldOptions = {}) {
  const server = await startTestServer(options.env, {
    clock: options.clock,
    logStream: options.logStream,
    eventStreamCaps: options.eventStreamCaps,
    processMetrics: options.processMetrics,
    simTimings: options.simTimings,
  });
  const db = server.database.db;
  const { company } = await createCompany(db);
  const alpha = await createTeam(db, { companyId: company.id, name: 'Alpha' });
  const userIds = {} as Record<Who, number>;
  const tokens = {} as Record<Who, string>;
  for (const who of callers) {
    const email = `${who}@a.test`;
    const user = await createUser(db, { companyId: company.id, email, ...people[who] });
    userIds[who] = user.id;
    if (who in alphaRoles) {
      const roleId = alphaRoles[who as keyof typeof alphaRoles];
      await addTeamMember(db, { teamId: alpha.id, userId: user.id, roleId });
    }
    ({ token: tokens[who] } = await signIn(server, email));
  }

  const other = await createCompany(db);
  const bravo = await createTeam(db, { companyId: other.company.id, name: 'Bravo' });
  const stranger = await createUser(db, {
    companyId: other.company.id,
    email: 'stranger@b.test',
    firstName: 'Sam',
    lastName: 'Stranger',
  });
  await addTeamMember(db, { teamId: bravo.id, userId: stranger.id, roleId: ROLE.manager });

  return {
    server,
    companyId: company.id,
    alphaId: alpha.id,
    userIds,
    other: { companyId: other.company.id, teamId: bravo.id, userId: stranger.id },
    /** Signs everyone in again (after the clock has moved past the sessions' expiry). */
    async signInAgain() {
      for (const who of callers) ({ token: tokens[who] } = await signIn(server, `${who}@a.test`));
    },
    /** One API call as `who`; the answer's status and JSON body. */
    async call(who: Who, method: Method, url: string, payload?: object) {
      const res = await server.app.inject({
        method,
        url: `/api/v1${url}`,
        headers: bearer(tokens[who]),
        ...(payload ? { payload } : {}),
      });
      return { status: res.statusCode, body: res.json() };
    },
    /** Every team, membership and VM row, to prove that a refused call changed nothing. */
    async state() {
      const [teamRows, memberRows, vmRows] = await Promise.all([
        db.select().from(teams).orderBy(asc(teams.id)),
        db.select().from(teamMembers).orderBy(asc(teamMembers.teamId), asc(teamMembers.userId)),
        db.select().from(virtualMachines).orderBy(asc(virtualMachines.id)),
      ]);
      return JSON.stringify({ teamRows, memberRows, vmRows });
    },
    /** The role of a membership, or null when there is none. */
    async roleOf(teamId: number, userId: number) {
      const [row] = await db
        .select({ roleId: teamMembers.roleId })
        .from(teamMembers)
        .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)));
      return row?.roleId ?? null;
    },
    close: () => server.close(),
  };
}
