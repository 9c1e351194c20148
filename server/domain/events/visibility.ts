import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { ActivityEvent } from '../../../src/api/contract/activity';
import { events } from '../../db/event-schema';
import type { Caller } from '../tenancy/access';
import type { EventRow } from './hub';

/**
 * Who sees which events, in the stream and in the history alike: an Admin the company's whole
 * log; anyone else the networks' events (networks are company-wide) and those of their teams and
 * of their teams' VMs. Never another company's.
 */
export function visibleEvents(caller: Caller, teamIds: number[] | 'all'): SQL {
  const company = eq(events.companyId, caller.companyId);
  if (teamIds === 'all') return company;
  const ofTheirTeams =
    teamIds.length === 0
      ? sql`false`
      : and(inArray(events.subjectType, ['vm', 'team']), inArray(events.teamId, teamIds));
  return and(company, or(eq(events.subjectType, 'network'), ofTheirTeams))!;
}

/** The same rule for an event in hand (`teamIds` a set, or 'all'). */
export function seesEvent(event: EventRow, teamIds: ReadonlySet<number> | 'all'): boolean {
  if (teamIds === 'all') return true;
  if (event.subjectType === 'network') return true;
  if (event.subjectType !== 'vm' && event.subjectType !== 'team') return false;
  return event.teamId !== null && teamIds.has(event.teamId);
}

export const toActivityEvent = (row: EventRow): ActivityEvent => ({
  id: row.seq,
  occurredAt: row.occurredAt,
  actor: { type: row.actorType, id: row.actorId, name: row.actorName },
  subject: { type: row.subjectType, id: row.subjectId, name: row.subjectName },
  action: row.action,
  outcome: row.outcome,
  teamId: row.teamId,
  networkId: row.networkId,
  operationId: row.operationId,
  detail: row.detail,
});
