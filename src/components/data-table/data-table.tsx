import { Alert, Center, Loader, Paper, Table, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { FlexRender, type RowData, type SortingState, type Updater } from '@tanstack/react-table';
import { useMemo, type KeyboardEvent, type ReactNode } from 'react';
import classes from './data-table.module.css';
import { HeaderCell } from './sort-header';
import { useAppTable, type DataTableColumn } from './table-hook';
import { TablePagination } from './table-pagination';
import type { TableSort } from './table-search';
import { TableToolbar } from './table-toolbar';

const cx = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(' ');

const NO_ROWS: readonly never[] = [];

export interface DataTableProps<TData extends RowData> {
  /** Heading of the table card, and its accessible name. */
  title?: ReactNode;
  description?: ReactNode;
  /** Build with `createAppColumnHelper<Row>()`; a column's id is its sort key on the server. */
  columns: DataTableColumn<TData>[];
  /** The current page's rows (undefined while the first load runs). */
  data: readonly TData[] | undefined;
  /** Stable row ids (keys, focus) — usually the entity id. */
  getRowId?: (row: TData) => string;

  /** 1-based page; with onPageChange, paging shows when totalPages > 1. */
  page?: number;
  totalPages?: number;
  onPageChange?: (page: number) => void;

  /** The committed search; with onSearchChange a search box shows (typing debounced 200 ms). */
  search?: string;
  onSearchChange?: (search: string) => void;
  searchPlaceholder?: string;

  /** The server-side sort; with onSortChange, sortable columns get header buttons. */
  sort?: TableSort;
  onSortChange?: (sort: TableSort) => void;

  /** No data yet: a spinner instead of rows. */
  isPending?: boolean;
  /** A request is under way (refresh, page change): dims stale rows and disables Refresh. */
  isFetching?: boolean;
  /** A load failure: replaces the table with an alert. */
  error?: Error | null;
  errorTitle?: string;
  /** With it a Refresh button shows. */
  onRefresh?: () => void;
  emptyMessage?: string;
  /** In place of emptyMessage: what the list is for and how to start it (e.g. with a button). */
  emptyState?: ReactNode;
  /** Makes rows clickable and keyboard reachable (Enter opens). */
  onRowClick?: (row: TData) => void;
  /** More controls next to the search box (e.g. a region filter). */
  toolbar?: ReactNode;
  /**
   * Rows drawn above the page's rows (e.g. the Teams list's Unassigned summary): set apart, never
   * clickable, and still shown under a load failure. Give them ids distinct from the data's.
   */
  pinnedRows?: readonly TData[];
}

/**
 * THE table of the console: every list goes through it. Headless TanStack Table (sorting and
 * paging are manual: the server does them; the URL holds the state) drawn with Mantine.
 */
export function DataTable<TData extends RowData>({
  title,
  description,
  columns,
  data,
  getRowId,
  page = 1,
  totalPages = 1,
  onPageChange,
  search,
  onSearchChange,
  searchPlaceholder,
  sort,
  onSortChange,
  isPending = false,
  isFetching = false,
  error,
  errorTitle = 'Something went wrong',
  onRefresh,
  emptyMessage = 'No data',
  emptyState,
  onRowClick,
  toolbar,
  pinnedRows = NO_ROWS,
}: DataTableProps<TData>) {
  const pageCount = Math.max(1, totalPages);
  // Controlled by the caller (the URL). pageSize only matters to client-side paging, which the
  // server does here.
  const sorting: SortingState = sort ? [sort] : [];
  const pagination = { pageIndex: page - 1, pageSize: data?.length ?? 0 };
  const tableData = useMemo(
    () => (pinnedRows.length ? [...pinnedRows, ...(data ?? [])] : (data ?? NO_ROWS)),
    [pinnedRows, data],
  );
  const table = useAppTable({
    columns,
    data: tableData,
    getRowId: getRowId ? (row) => getRowId(row) : undefined,
    state: { sorting, pagination },
    enableSorting: !!onSortChange,
    onSortingChange: (updater: Updater<SortingState>) => {
      const [first] = typeof updater === 'function' ? updater(sorting) : updater;
      if (first) onSortChange?.({ id: first.id, desc: first.desc });
    },
    pageCount,
    onPaginationChange: (updater) => {
      const next = typeof updater === 'function' ? updater(pagination) : updater;
      if (next.pageIndex !== pagination.pageIndex) onPageChange?.(next.pageIndex + 1);
    },
  });

  const allRows = table.getRowModel().rows;
  const pinned = allRows.slice(0, pinnedRows.length);
  const rows = allRows.slice(pinnedRows.length);
  const columnCount = table.getAllLeafColumns().length || columns.length;

  const onRowKeyDown = (event: KeyboardEvent, row: TData) => {
    if (event.key === 'Enter' && event.target === event.currentTarget) onRowClick?.(row);
  };

  const renderCells = (row: (typeof allRows)[number]) =>
    row.getAllCells().map((cell) => {
      const { meta, header } = cell.column.columnDef;
      // On a phone a plain cell shows its header's text before its value (see the CSS).
      const label = meta?.card
        ? undefined
        : (meta?.label ?? (typeof header === 'string' ? header : undefined));
      return (
        <Table.Td
          key={cell.id}
          role="cell"
          style={{ textAlign: meta?.align }}
          data-card={meta?.card}
          data-label={label || undefined}
        >
          <FlexRender cell={cell} />
        </Table.Td>
      );
    });

  const pinnedBody = pinned.map((row) => (
    <Table.Tr key={row.id} role="row" className={classes.pinnedRow} data-pinned>
      {renderCells(row)}
    </Table.Tr>
  ));

  let body: ReactNode;
  if (error) {
    // Only the pinned rows stay under the alert.
    body = null;
  } else if (isPending && !data) {
    body = (
      <Table.Tr role="row">
        <Table.Td role="cell" colSpan={columnCount}>
          <Center py="xl">
            <Loader size="sm" aria-label="Loading data" />
          </Center>
        </Table.Td>
      </Table.Tr>
    );
  } else if (rows.length === 0) {
    body = (
      <Table.Tr role="row">
        <Table.Td role="cell" colSpan={columnCount}>
          {emptyState ?? (
            <Text ta="center" c="dimmed" py="xl" size="sm">
              {emptyMessage}
            </Text>
          )}
        </Table.Td>
      </Table.Tr>
    );
  } else {
    body = rows.map((row) => (
      <Table.Tr
        key={row.id}
        role="row"
        className={onRowClick ? classes.clickableRow : undefined}
        tabIndex={onRowClick ? 0 : undefined}
        onClick={onRowClick ? () => onRowClick(row.original) : undefined}
        onKeyDown={onRowClick ? (event) => onRowKeyDown(event, row.original) : undefined}
      >
        {renderCells(row)}
      </Table.Tr>
    ));
  }

  return (
    <Paper withBorder radius="md" shadow="xs">
      <TableToolbar
        title={title}
        description={description}
        search={search}
        onSearchChange={onSearchChange}
        searchPlaceholder={searchPlaceholder}
        isFetching={isFetching}
        onRefresh={onRefresh}
        extras={toolbar}
      />
      {error && (
        <Alert
          m="md"
          mt={0}
          color="red"
          variant="light"
          title={errorTitle}
          icon={<IconAlertCircle aria-hidden />}
        >
          {error.message}
        </Alert>
      )}
      {(!error || pinned.length > 0) && (
        <Table.ScrollContainer
          minWidth={480}
          classNames={{ scrollContainerInner: classes.scrollInner }}
        >
          {/*
            Explicit roles: on a phone the rows are drawn as stacked cards (CSS display changes),
            and the roles keep it a table for screen readers whatever the display.
          */}
          <Table
            role="table"
            aria-label={typeof title === 'string' ? title : undefined}
            verticalSpacing="sm"
            horizontalSpacing="md"
            highlightOnHover={!!onRowClick && rows.length > 0}
            aria-busy={isFetching || undefined}
            className={cx(classes.table, isFetching && !isPending && classes.stale)}
          >
            <Table.Thead role="rowgroup">
              {table.getHeaderGroups().map((group) => (
                <Table.Tr key={group.id} role="row">
                  {group.headers.map((header) => (
                    <HeaderCell key={header.id} header={header} />
                  ))}
                </Table.Tr>
              ))}
            </Table.Thead>
            <Table.Tbody role="rowgroup">
              {pinnedBody}
              {body}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {!error && onPageChange && pageCount > 1 && (
        <TablePagination
          page={page}
          totalPages={pageCount}
          canPrevious={table.getCanPreviousPage()}
          canNext={table.getCanNextPage()}
          onPrevious={() => table.previousPage()}
          onNext={() => table.nextPage()}
        />
      )}
    </Paper>
  );
}
