import { and, asc, count, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { ListVmsQuery, VmPage, VmSortColumn } from '../../../src/api/contract/vms';
import { vmMessages } from '../../../src/api/contract/vms';
import { configurations } from '../../db/catalog-schema';
import type { Db } from '../../db/client';
import { virtualMachines as vm } from '../../db/vm-schema';
import { notFound } from '../../http-error';
import { teamRoleOf, visibleTeamIds, type Caller } from '../access';
import { escapeLike, pageCount } from '../list-paging';

/** Each sort follows an index of `vm-schema.ts`; the id breaks ties so paging is stable. */
const sortKeys: Record<VmSortColumn, SQL | typeof vm.status> = {
  name: sql`lower(${vm.name})`,
  status: vm.status,
  // Size order: the catalogue's ids go from the smallest size to the largest.
  configuration: sql`${vm.configurationId}`,
  createdAt: sql`${vm.createdAt}`,
};

/**
 * One page of the VMs the caller may see, searched, sorted and paged in SQL: every VM of the
 * company for an Admin, else those of the caller's teams; with `teamId`, that team's only.
 */
export async function listVms(db: Db, caller: Caller, query: ListVmsQuery): Promise<VmPage> {
  if (query.teamId !== undefined && (await teamRoleOf(db, caller, query.teamId)) === undefined) {
    throw notFound(vmMessages.teamNotFound);
  }
  const teams = await visibleTeamIds(db, caller);
  const where = and(
    eq(vm.companyId, caller.companyId),
    isNull(vm.deletedAt),
    teams === 'all' ? undefined : teams.length > 0 ? inArray(vm.teamId, teams) : sql`false`,
    query.teamId === undefined ? undefined : eq(vm.teamId, query.teamId),
    // lower() on both sides so that the trigram index on lower(name) serves the search.
    query.search
      ? sql`lower(${vm.name}) like ${`%${escapeLike(query.search.toLowerCase())}%`}`
      : undefined,
  );
  const direction = query.sortDescending ? desc : asc;

  const [[total], rows] = await Promise.all([
    db.select({ n: count() }).from(vm).where(where),
    db
      .select({
        id: vm.id,
        name: vm.name,
        status: vm.status,
        configuration: configurations.name,
        cpu: configurations.cpu,
        ram: configurations.ram,
        createdAt: vm.createdAt,
      })
      .from(vm)
      .innerJoin(configurations, eq(configurations.id, vm.configurationId))
      .where(where)
      .orderBy(direction(sortKeys[query.sortColumn]), direction(vm.id))
      .limit(query.rowsPerPage)
      .offset((query.page - 1) * query.rowsPerPage),
  ]);
  return { data: rows, totalPages: pageCount(total?.n ?? 0, query.rowsPerPage) };
}
