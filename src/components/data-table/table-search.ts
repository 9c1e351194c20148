import { z } from '../../api/contract/zod';

export type SortDirection = 'asc' | 'desc';
/** A sort as it stands in the URL: `name.asc`, `email.desc`. */
export type SortParam<C extends string = string> = `${C}.${SortDirection}`;

/** The list state that lives in the URL of every list screen. */
export interface TableSearch<C extends string = string> {
  page: number;
  search: string;
  sort: SortParam<C>;
}

/** A sort as the table works with it. */
export interface TableSort {
  id: string;
  desc: boolean;
}

const SEARCH_MAX = 200;

/**
 * The zod schema of a list route's search params: `page` (≥ 1), `search` and `sort`
 * (`<column>.<asc|desc>` for the given columns). A bad or missing value falls back instead of
 * erroring, so a hand-edited or stale link still opens the list.
 *
 * @example validateSearch: tableSearchSchema(['name', 'email', 'createdAt'], 'name.asc')
 */
export function tableSearchSchema<const C extends string>(
  columns: readonly C[],
  defaultSort: NoInfer<SortParam<C>>,
) {
  const sorts = new Set<string>(columns.flatMap((c) => [`${c}.asc`, `${c}.desc`]));
  return z.object({
    page: z._default(z.catch(z.coerce.number().check(z.int(), z.gte(1)), 1), 1),
    // The router parses `?search=123` as a number; the text typed is what counts.
    search: z._default(z.catch(z.coerce.string().check(z.maxLength(SEARCH_MAX)), ''), ''),
    sort: z._default(
      z.catch(
        z.custom<SortParam<C>>((value) => typeof value === 'string' && sorts.has(value)),
        defaultSort,
      ),
      defaultSort,
    ),
  });
}

/** The values a list URL leaves out (for `stripSearchParams`), so `/users` stays `/users`. */
export const tableSearchDefaults = <C extends string>(defaultSort: SortParam<C>) =>
  ({ page: 1, search: '', sort: defaultSort }) satisfies TableSearch<C>;

export const parseSort = <C extends string>(sort: SortParam<C>): { id: C; desc: boolean } => {
  const dot = sort.lastIndexOf('.');
  return { id: sort.slice(0, dot) as C, desc: sort.slice(dot + 1) === 'desc' };
};

export const formatSort = (sort: TableSort): SortParam =>
  `${sort.id}.${sort.desc ? 'desc' : 'asc'}`;

/** The query of a paged list endpoint (`page`, `rowsPerPage`, `search`, `sortColumn`, `sortDescending`). */
export function toListQuery<C extends string>(search: TableSearch<C>, rowsPerPage: number) {
  const sort = parseSort(search.sort);
  return {
    page: search.page,
    rowsPerPage,
    search: search.search.trim(),
    sortColumn: sort.id,
    sortDescending: sort.desc,
  };
}

/**
 * Wires a DataTable to its route's search params. `update` navigates; searching replaces the
 * history entry (one entry per typed word would make Back useless) and, like a new sort, goes
 * back to page 1.
 */
export function tableSearchProps<C extends string>(
  search: TableSearch<C>,
  update: (patch: Partial<TableSearch<C>>, options: { replace: boolean }) => void,
) {
  return {
    page: search.page,
    onPageChange: (page: number) => update({ page }, { replace: false }),
    search: search.search,
    onSearchChange: (text: string) => update({ search: text, page: 1 }, { replace: true }),
    sort: parseSort(search.sort) as TableSort,
    onSortChange: (sort: TableSort) =>
      update({ sort: formatSort(sort) as SortParam<C>, page: 1 }, { replace: false }),
  };
}
