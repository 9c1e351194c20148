import { Table, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconSelector } from '@tabler/icons-react';
import { FlexRender, type Header, type RowData } from '@tanstack/react-table';
import classes from './data-table.module.css';
import type { DataTableFeatures } from './table-hook';

/**
 * One header cell. A sortable column's title is a button that toggles its sort; the th carries
 * aria-sort so screen readers announce the order.
 */
export function HeaderCell<TData extends RowData>({
  header,
}: {
  header: Header<DataTableFeatures, TData, unknown>;
}) {
  const { column } = header;
  const meta = column.columnDef.meta;
  const style = { width: meta?.width, textAlign: meta?.align };
  if (header.isPlaceholder) return <Table.Th role="columnheader" style={style} />;

  const title = <FlexRender header={header} />;
  if (!column.getCanSort())
    return (
      <Table.Th role="columnheader" style={style}>
        {title}
      </Table.Th>
    );

  const sorted = column.getIsSorted();
  const Icon =
    sorted === 'asc' ? IconChevronUp : sorted === 'desc' ? IconChevronDown : IconSelector;
  return (
    <Table.Th
      role="columnheader"
      style={style}
      aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none'}
    >
      <UnstyledButton className={classes.sortButton} onClick={column.getToggleSortingHandler()}>
        {title}
        <Icon
          size={14}
          stroke={2}
          aria-hidden
          className={sorted ? classes.sortIconActive : classes.sortIcon}
        />
      </UnstyledButton>
    </Table.Th>
  );
}
