import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { ListVmsQuery, VmPage, VmRow, VmSortColumn } from '../../../src/api/contract/vms';
import { vmMessages, vmStatusGroups } from '../../../src/api/contract/vms';
import { configurations } from '../../db/catalog-schema';
import { publicIps, vmInterfaces } from '../../db/network-schema';
import type { Db } from '../../db/client';
import { listCounts } from '../../db/list-counts-schema';
import { preparedOnce } from '../../db/prepared';
import { virtualMachines as vm } from '../../db/vm-schema';
import { notFound } from '../../http-error';
import { teamRoleOf, visibleTeamIds, type Caller } from '../tenancy/access';
import { withPrimaryIps } from './vm-addresses';
import {
  ANCHOR_STRIDE,
  anchorBefore,
  cachedAnchors,
  readAnchorsOnce,
  type Anchors,
} from '../lists/list-anchors';
import { escapeLike, FILTERED_COUNT_BOUND, keptCount, pageCount } from '../lists/list-paging';

const p = sql.placeholder;

/**
 * Each sort follows an index of `vm-schema.ts`, with the id breaking ties so that paging is
 * stable; `type` casts an anchor's key (text) back for the index range. Names sort by their
 * natural key (`web-2` before `web-10`), a column the database keeps.
 */
const sorts: Record<VmSortColumn, { key: SQL; type: string }> = {
  name: { key: sql`${vm.nameKey}`, type: 'text' },
  status: { key: sql`${vm.status}`, type: 'text' },
  // Size order: the catalogue's ids go from the smallest size to the largest.
  configuration: { key: sql`${vm.configurationId}`, type: 'integer' },
  createdAt: { key: sql`${vm.createdAt}`, type: 'timestamptz' },
};

/** Whose VMs: the company's (an Admin), one team's, or those of the caller's teams. */
type ScopeKind = 'all' | 'team' | 'teams';

interface Shape {
  scope: ScopeKind;
  sort: VmSortColumn;
  descending: boolean;
  search: boolean;
  /** Only some statuses (`query.status`). */
  status: boolean;
  /** Only the VMs holding a public IP (`query.publicIp`). */
  publicIp: boolean;
  /** From an anchor's key on. */
  anchored: boolean;
}

/** The values of a shape's placeholders. */
type Values = {
  companyId: number;
  teamId: number;
  /** The caller's teams as a PostgreSQL array literal. */
  teams: string;
  like: string;
  /** The filter's statuses as a PostgreSQL array literal. */
  statuses: string;
  limit: number;
  skip: number;
  bound: number;
  anchorKey: string;
  anchorId: number;
};

/**
 * One page of the VMs the caller may see, searched, sorted and paged in SQL: every VM of the
 * company for an Admin, else those of the caller's teams; with `teamId`, that team's only.
 * `Page X of Y` comes from the kept counts (a search counts its matches, up to a bound); a deep
 * page starts from the nearest anchor; the rows are read for the page's ids only.
 */
export async function listVms(db: Db, caller: Caller, query: ListVmsQuery): Promise<VmPage> {
  if (query.teamId !== undefined && (await teamRoleOf(db, caller, query.teamId)) === undefined) {
    throw notFound(vmMessages.teamNotFound);
  }
  const teams = query.teamId === undefined ? await visibleTeamIds(db, caller) : [];
  const scope: ScopeKind = query.teamId !== undefined ? 'team' : teams === 'all' ? 'all' : 'teams';
  const sortedTeams = teams === 'all' ? [] : [...teams].sort((a, b) => a - b);
  const offset = (query.page - 1) * query.rowsPerPage;
  const search = query.search !== '';
  const values: Values = {
    companyId: caller.companyId,
    teamId: query.teamId ?? 0,
    teams: `{${sortedTeams.join(',')}}`,
    // lower() on both sides so that the trigram index on lower(name) serves the search.
    like: `%${escapeLike(query.search.toLowerCase())}%`,
    statuses: `{${query.status ? vmStatusGroups[query.status].join(',') : ''}}`,
    limit: query.rowsPerPage,
    skip: offset,
    bound: offset + FILTERED_COUNT_BOUND,
    anchorKey: '',
    anchorId: 0,
  };
  const shape: Shape = {
    scope,
    sort: query.sortColumn,
    descending: query.sortDescending,
    search,
    status: query.status !== undefined,
    publicIp: query.publicIp === true,
    anchored: false,
  };
  // Each row also carries the address a customer reaches the VM at, read for the page's ids.
  const answer = async (read: {
    rows: Omit<VmRow, 'primaryIp'>[];
    total: number;
  }): Promise<VmPage> => ({
    data: await withPrimaryIps(db, caller.companyId, read.rows),
    totalPages: pageCount(read.total, query.rowsPerPage),
  });
  // A filtered list pages the long way, as a search does: its anchors would be one list's more.
  if (filtered(shape) || offset < ANCHOR_STRIDE) {
    return answer(await readPage(db, shape, values));
  }

  const list = `vms|${caller.companyId}|${scope}:${query.teamId ?? sortedTeams.join(',')}|${shape.sort}|${shape.descending}`;
  const anchorsOf = () => readAnchorsOnce(db, list, () => readAnchors(db, shape, values));
  let read = await readPage(db, shape, values, cachedAnchors(db, list) ?? (await anchorsOf()));
  if (read.stale) read = await readPage(db, shape, values, await anchorsOf());
  // The list keeps changing under its anchors: paged the long way, which is always exact.
  if (read.stale) read = await readPage(db, shape, values);
  return answer(read);
}

const filtered = (shape: Shape) => shape.search || shape.status || shape.publicIp;

function whereOf(shape: Shape): SQL | undefined {
  return and(
    eq(vm.companyId, p('companyId')),
    isNull(vm.deletedAt),
    shape.scope === 'team' ? eq(vm.teamId, p('teamId')) : undefined,
    shape.scope === 'teams' ? sql`${vm.teamId} = any(${p('teams')}::integer[])` : undefined,
    shape.search ? sql`lower(${vm.name}) like ${p('like')}` : undefined,
    shape.status ? sql`${vm.status} = any(${p('statuses')}::text[])` : undefined,
    shape.publicIp
      ? sql`exists (select 1 from ${vmInterfaces} join ${publicIps}
          on ${publicIps.interfaceId} = ${vmInterfaces.id} where ${vmInterfaces.vmId} = ${vm.id})`
      : undefined,
  );
}

function totalOf(db: Db, shape: Shape): SQL<number> {
  if (filtered(shape)) {
    const matches = db
      .select({ one: sql`1` })
      .from(vm)
      .where(whereOf(shape))
      .limit(p('bound'));
    return sql<number>`(select count(*) from (${matches}) as matches)`.mapWith(Number);
  }
  if (shape.scope === 'team') return keptCount(db, 'team_vms', p('teamId'));
  if (shape.scope === 'teams') return keptCount(db, 'team_vms', sql`any(${p('teams')}::integer[])`);
  return keptCount(db, 'vms', p('companyId'));
}

/** The version of the company's VM list, read in the snapshot of the statement it is part of. */
const versionOf = (db: Db) =>
  sql<number>`coalesce((${db
    .select({ version: listCounts.version })
    .from(listCounts)
    .where(and(eq(listCounts.list, 'vms'), eq(listCounts.ownerId, p('companyId'))))}), 0)`.mapWith(
    Number,
  );

const direction = (descending: boolean) => sql.raw(descending ? 'desc' : 'asc');
const shapeName = (kind: string, shape: Shape) => `vm-list:${kind}:${JSON.stringify(shape)}`;

function anchorsQuery(db: Db, shape: Shape) {
  return preparedOnce(db, shapeName('anchors', shape), (name) => {
    const { key } = sorts[shape.sort];
    const dir = direction(shape.descending);
    const positioned = db
      .select({
        key: sql<string>`(${key})::text`.as('key'),
        id: vm.id,
        position: sql<number>`row_number() over (order by ${key} ${dir}, ${vm.id} ${dir}) - 1`
          .mapWith(Number)
          .as('position'),
      })
      .from(vm)
      .where(whereOf(shape))
      .as('positioned');
    return db
      .select({
        version: versionOf(db),
        key: positioned.key,
        id: positioned.id,
        position: positioned.position,
      })
      .from(positioned)
      .where(sql`${positioned.position} % ${sql.raw(String(ANCHOR_STRIDE))} = 0`)
      .orderBy(positioned.position)
      .prepare(name);
  });
}

async function readAnchors(db: Db, shape: Shape, values: Values): Promise<Anchors> {
  const rows = await anchorsQuery(db, shape).execute(values);
  return {
    version: rows[0]?.version ?? -1,
    anchors: rows.map(({ key, id, position }) => ({ key, id, position: Number(position) })),
  };
}

function pageQuery(db: Db, shape: Shape) {
  return preparedOnce(db, shapeName('page', shape), (name) => {
    const { key, type } = sorts[shape.sort];
    const dir = direction(shape.descending);
    const from = shape.anchored
      ? sql`(${key}, ${vm.id}) ${sql.raw(shape.descending ? '<=' : '>=')} (${p('anchorKey')}::${sql.raw(type)}, ${p('anchorId')}::integer)`
      : undefined;
    // A search reads its matches from the trigram index and sorts them: fenced (OFFSET 0) so that
    // the planner does not walk the sort's index hoping to meet ten matches early.
    const ids = shape.search
      ? sql`select id from (${db
          .select({ id: vm.id, key: sql`${key}`.as('key') })
          .from(vm)
          .where(whereOf(shape))} offset 0) as matches
          order by key ${dir}, id ${dir} limit ${p('limit')} offset ${p('skip')}`
      : db
          .select({ id: vm.id })
          .from(vm)
          .where(and(whereOf(shape), from))
          .orderBy(sql`${key} ${dir}`, sql`${vm.id} ${dir}`)
          .limit(p('limit'))
          .offset(p('skip'));
    return (
      db
        .select({
          total: totalOf(db, shape),
          version: versionOf(db),
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
        // The ids as an array, not a join: the one plan PostgreSQL keeps for the statement (made
        // without knowing the LIMIT) then fetches them by primary key, whatever the page size.
        .where(sql`${vm.id} = any(array(${ids}))`)
        .orderBy(sql`${key} ${dir}`, sql`${vm.id} ${dir}`)
        .prepare(name)
    );
  });
}

function countsQuery(db: Db, shape: Shape) {
  return preparedOnce(db, shapeName('counts', { ...shape, anchored: false }), (name) =>
    db
      .select({ total: totalOf(db, shape), version: versionOf(db) })
      .from(sql`(select 1) as one`)
      .prepare(name),
  );
}

/**
 * The page's ids first, from the sort's index (from the anchor's key on when there is one), then
 * their rows; the total and the list's version ride along in the same snapshot.
 */
async function readPage(db: Db, shape: Shape, values: Values, anchors?: Anchors) {
  const anchor = anchors && anchorBefore(anchors.anchors, values.skip);
  const rows = await pageQuery(db, { ...shape, anchored: anchor !== undefined }).execute({
    ...values,
    ...(anchor && {
      anchorKey: anchor.key,
      anchorId: anchor.id,
      skip: values.skip - anchor.position,
    }),
  });
  const stale = (version: number) => anchors !== undefined && version !== anchors.version;
  if (rows.length > 0) {
    return {
      total: rows[0]!.total,
      stale: stale(rows[0]!.version),
      rows: rows.map(({ total: _total, version: _version, ...row }) => row),
    };
  }
  // Past the last page: the counts alone.
  const [counted] = await countsQuery(db, shape).execute(values);
  return { total: counted?.total ?? 0, stale: stale(counted?.version ?? 0), rows: [] };
}
