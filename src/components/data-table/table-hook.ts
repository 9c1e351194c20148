import {
  createTableHook,
  rowPaginationFeature,
  rowSortingFeature,
  tableFeatures,
  type ColumnDef,
  type RowData,
} from '@tanstack/react-table';

/** What a column may tell the DataTable about how to draw it. */
export interface DataTableColumnMeta {
  /** A fixed width for the column (CSS length or px). */
  width?: number | string;
  align?: 'left' | 'center' | 'right';
  /**
   * The column's part when the table is drawn as stacked rows on a phone: `title` first and bold,
   * `status` next, `action` beside the title; `hidden` leaves it out of the stacked row (its value
   * must be elsewhere in the row). Any other column shows as its header and value.
   */
  card?: DataTableCardPart;
  /** The header's text on a phone's stacked row when the header is not a plain string. */
  label?: string;
}

export type DataTableCardPart = 'title' | 'status' | 'action' | 'hidden';

/**
 * Every list in the console sorts and pages on the server, so the table only tracks that state
 * (manual sorting and pagination) and never sorts or slices rows itself.
 */
export const dataTableFeatures = tableFeatures({
  rowSortingFeature,
  rowPaginationFeature,
  columnMeta: {} as DataTableColumnMeta,
});
export type DataTableFeatures = typeof dataTableFeatures;

export const { useAppTable, createAppColumnHelper } = createTableHook({
  features: dataTableFeatures,
  manualSorting: true,
  manualPagination: true,
  // The server always sorts by something; a third click must not drop the sort.
  enableSortingRemoval: false,
  enableMultiSort: false,
  // Declared empty so a typo like `table.getVisbleCells` fails to compile instead of being typed
  // as a registered component.
  tableComponents: {},
  cellComponents: {},
  headerComponents: {},
});

/** A column of a DataTable; build them with `createAppColumnHelper<Row>()`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- columns mix value types
export type DataTableColumn<TData extends RowData> = ColumnDef<DataTableFeatures, TData, any>;
