import { and, asc, desc, eq, gte, ilike, lt, or, type SQL } from 'drizzle-orm';
import type { ActivityEvent, ListActivityQuery } from '../../../src/api/contract/activity';
import { networkMessages } from '../../../src/api/contract/networks';
import { teamMessages } from '../../../src/api/contract/teams';
import type { Db } from '../../db/client';
import { events } from '../../db/event-schema';
import { networks } from '../../db/network-schema';
import { notFound } from '../../http-error';
import { teamRoleOf, visibleTeamIds, type Caller } from '../tenancy/access';
import { boundedCount, containsPattern, pageWithTotal } from '../lists/list-paging';
import { findVisibleVm } from '../vms/vm-access';
import type { EventRow } from './hub';
import { toActivityEvent, visibleEvents } from './visibility';

/** A VM, network or team named in the filter must be one the caller sees: else 404, as anywhere. */
async function requireVisibleSubject(db: Db, caller: Caller, query: ListActivityQuery) {
  const networkId =
    query.networkId ?? (query.subjectType === 'network' ? query.subjectId : undefined);
  if (networkId !== undefined) {
    const [network] = await db
      .select({ id: networks.id })
      .from(networks)
      .where(and(eq(networks.id, networkId), eq(networks.companyId, caller.companyId)));
    if (!network) throw notFound(networkMessages.notFound);
  }
  if (query.subjectId === undefined) return;
  if (query.subjectType === 'vm') await findVisibleVm(db, caller, query.subjectId);
  if (query.subjectType === 'team' && !(await teamRoleOf(db, caller, query.subjectId))) {
    throw notFound(teamMessages.notFound);
  }
}

/**
 * A page of the company's history as the caller may see it (the stream's rule), newest first
 * unless asked otherwise. A network's history holds its own events and those of its interfaces
 * and public addresses.
 */
export async function listActivity(
  db: Db,
  caller: Caller,
  query: ListActivityQuery,
): Promise<{ data: ActivityEvent[]; totalPages: number }> {
  await requireVisibleSubject(db, caller, query);
  const teamIds = await visibleTeamIds(db, caller);
  const filters: (SQL | undefined)[] = [
    visibleEvents(caller, teamIds),
    query.subjectType && eq(events.subjectType, query.subjectType),
    query.subjectId === undefined || query.subjectType === 'network'
      ? undefined
      : eq(events.subjectId, query.subjectId),
    query.actorType && eq(events.actorType, query.actorType),
    query.actorId === undefined ? undefined : eq(events.actorId, query.actorId),
    query.outcome && eq(events.outcome, query.outcome),
    query.from && gte(events.occurredAt, query.from),
    query.to && lt(events.occurredAt, query.to),
  ];
  const networkId =
    query.networkId ?? (query.subjectType === 'network' ? query.subjectId : undefined);
  if (networkId !== undefined) {
    filters.push(
      or(
        eq(events.networkId, networkId),
        and(eq(events.subjectType, 'network'), eq(events.subjectId, networkId)),
      ),
    );
  }
  if (query.search) {
    const pattern = containsPattern(query.search);
    filters.push(or(ilike(events.subjectName, pattern), ilike(events.actorName, pattern)));
  }
  const where = and(...filters);
  const offset = (query.page - 1) * query.rowsPerPage;
  const total = boundedCount(db.select({ id: events.id }).from(events).where(where), offset);
  const rows = await db
    .select({ event: events, total })
    .from(events)
    .where(where)
    .orderBy(query.sortDescending ? desc(events.seq) : asc(events.seq))
    .limit(query.rowsPerPage)
    .offset(offset);
  const page = await pageWithTotal(
    db,
    rows.map((row) => ({ ...row.event, total: row.total })) as (EventRow & { total: number })[],
    total,
    query.rowsPerPage,
  );
  return {
    data: page.data.map((row) => toActivityEvent(row as EventRow)),
    totalPages: page.totalPages,
  };
}
