import { MantineProvider } from '@mantine/core';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { DataTable, type DataTableProps } from '../../src/components/data-table/data-table';
import { createAppColumnHelper } from '../../src/components/data-table/table-hook';
import type { TableSort } from '../../src/components/data-table/table-search';
import { theme } from '../../src/theme';
import { useFakeTimersForUser } from './support/fake-timers';

interface Server {
  id: number;
  name: string;
  region: string;
}

const column = createAppColumnHelper<Server>();
const columns = [
  column.accessor('name', { header: 'Name' }),
  column.accessor('region', { header: 'Region' }),
  column.display({ id: 'actions', header: 'Actions', enableSorting: false, cell: () => '…' }),
];
const rows: Server[] = [
  { id: 1, name: 'alpha', region: 'eu-west' },
  { id: 2, name: 'bravo', region: 'us-east' },
];

type HarnessProps = Partial<DataTableProps<Server>> & {
  initialPage?: number;
  initialSort?: TableSort;
};

/** A DataTable owning its state the way a route does through the URL. */
function Harness({
  initialPage = 1,
  initialSort = { id: 'name', desc: false },
  onPageChange,
  onSearchChange,
  onSortChange,
  ...props
}: HarnessProps) {
  const [page, setPage] = useState(initialPage);
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<TableSort | undefined>(initialSort);
  return (
    <DataTable
      title="Servers"
      columns={columns}
      data={rows}
      getRowId={(row) => String(row.id)}
      page={page}
      onPageChange={(next) => {
        setPage(next);
        onPageChange?.(next);
      }}
      search={search}
      onSearchChange={(next) => {
        setSearch(next);
        onSearchChange?.(next);
      }}
      sort={sort}
      onSortChange={(next) => {
        setSort(next);
        onSortChange?.(next);
      }}
      {...props}
    />
  );
}

const renderTable = (props: HarnessProps = {}) =>
  render(
    <MantineProvider theme={theme}>
      <Harness {...props} />
    </MantineProvider>,
  );

const header = (name: string) => screen.getByRole('columnheader', { name: new RegExp(name) });

describe('DataTable: sorting', () => {
  it('makes sortable headers buttons with aria-sort, and toggles the direction', async () => {
    const onSortChange = vi.fn();
    const user = userEvent.setup();
    renderTable({ onSortChange });
    expect(header('Name')).toHaveAttribute('aria-sort', 'ascending');
    expect(header('Region')).toHaveAttribute('aria-sort', 'none');
    expect(header('Actions')).not.toHaveAttribute('aria-sort');
    expect(within(header('Actions')).queryByRole('button')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Region' }));
    expect(onSortChange).toHaveBeenLastCalledWith({ id: 'region', desc: false });
    expect(header('Region')).toHaveAttribute('aria-sort', 'ascending');
    expect(header('Name')).toHaveAttribute('aria-sort', 'none');

    await user.click(screen.getByRole('button', { name: 'Region' }));
    expect(onSortChange).toHaveBeenLastCalledWith({ id: 'region', desc: true });
    expect(header('Region')).toHaveAttribute('aria-sort', 'descending');

    // No third "unsorted" state: the server always sorts by something.
    await user.click(screen.getByRole('button', { name: 'Region' }));
    expect(onSortChange).toHaveBeenLastCalledWith({ id: 'region', desc: false });
  });

  it('has no sort buttons without onSortChange', () => {
    render(
      <MantineProvider theme={theme}>
        <DataTable columns={columns} data={rows} />
      </MantineProvider>,
    );
    expect(screen.queryByRole('button', { name: 'Name' })).not.toBeInTheDocument();
    expect(header('Name')).not.toHaveAttribute('aria-sort');
  });
});

describe('DataTable: search', () => {
  it('shows the text at once and commits it once after 200 ms', async () => {
    const user = useFakeTimersForUser();
    const onSearchChange = vi.fn();
    renderTable({ onSearchChange, searchPlaceholder: 'Search servers...' });
    const box = screen.getByPlaceholderText('Search servers...');
    await user.type(box, 'alp');
    expect(box).toHaveValue('alp');
    expect(onSearchChange).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(199));
    expect(onSearchChange).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onSearchChange).toHaveBeenCalledTimes(1);
    expect(onSearchChange).toHaveBeenCalledWith('alp');
    expect(box).toHaveValue('alp');
  });

  it('follows the search when it changes from outside (Back, a link)', () => {
    const { rerender } = render(
      <MantineProvider theme={theme}>
        <DataTable columns={columns} data={rows} search="old" onSearchChange={() => {}} />
      </MantineProvider>,
    );
    expect(screen.getByRole('searchbox')).toHaveValue('old');
    rerender(
      <MantineProvider theme={theme}>
        <DataTable columns={columns} data={rows} search="new" onSearchChange={() => {}} />
      </MantineProvider>,
    );
    expect(screen.getByRole('searchbox')).toHaveValue('new');
  });
});

describe('DataTable: paging', () => {
  it('shows no paging for a single page', () => {
    renderTable({ totalPages: 1 });
    expect(screen.queryByText(/Page \d+ of/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Previous/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Next/ })).not.toBeInTheDocument();
  });

  it('reads "Page X of Y" and disables Previous on the first and Next on the last page', async () => {
    const onPageChange = vi.fn();
    const user = userEvent.setup();
    renderTable({ totalPages: 3, onPageChange });
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Previous/ })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: /Next/ }));
    expect(onPageChange).toHaveBeenLastCalledWith(2);
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Previous/ })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: /Next/ }));
    expect(screen.getByText('Page 3 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Next/ })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: /Previous/ }));
    expect(onPageChange).toHaveBeenLastCalledWith(2);
  });
});

describe('DataTable: states', () => {
  it('shows a spinner while the first load runs', () => {
    renderTable({ data: undefined, isPending: true });
    expect(screen.getByLabelText('Loading data')).toBeInTheDocument();
    expect(screen.queryByText('No data')).not.toBeInTheDocument();
  });

  it('says "No data" when empty, or the given message', () => {
    const { unmount } = renderTable({ data: [] });
    expect(screen.getByText('No data')).toBeInTheDocument();
    unmount();
    renderTable({ data: [], emptyMessage: 'No servers found' });
    expect(screen.getByText('No servers found')).toBeInTheDocument();
    expect(screen.queryByText('No data')).not.toBeInTheDocument();
  });

  it('replaces the table with the error', () => {
    renderTable({
      error: new Error('Database unavailable'),
      errorTitle: 'Error fetching servers',
      totalPages: 3,
    });
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Error fetching servers');
    expect(alert).toHaveTextContent('Database unavailable');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.queryByText('alpha')).not.toBeInTheDocument();
    expect(screen.queryByText(/Page 1 of/)).not.toBeInTheDocument();
  });

  it('keeps Refresh disabled and spinning while fetching and 300 ms after', () => {
    vi.useFakeTimers();
    const onRefresh = vi.fn();
    const { rerender } = renderTable({ onRefresh, isFetching: false });
    const refresh = () => screen.getByRole('button', { name: 'Refresh' });
    expect(refresh()).toBeEnabled();
    fireEvent.click(refresh());
    expect(onRefresh).toHaveBeenCalledTimes(1);

    const withFetching = (isFetching: boolean) => (
      <MantineProvider theme={theme}>
        <Harness onRefresh={onRefresh} isFetching={isFetching} />
      </MantineProvider>
    );
    rerender(withFetching(true));
    expect(refresh()).toBeDisabled();
    expect(refresh().querySelector('[data-spinning]')).not.toBeNull();
    rerender(withFetching(false));
    expect(refresh()).toBeDisabled();
    act(() => vi.advanceTimersByTime(299));
    expect(refresh()).toBeDisabled();
    act(() => vi.advanceTimersByTime(1));
    expect(refresh()).toBeEnabled();
    expect(refresh().querySelector('[data-spinning]')).toBeNull();
  });
});

describe('DataTable: rows', () => {
  it('opens a row on click and on Enter, rows being keyboard reachable', async () => {
    const onRowClick = vi.fn();
    const user = userEvent.setup();
    renderTable({ onRowClick });
    const alpha = screen.getByRole('row', { name: /alpha/ });
    expect(alpha).toHaveAttribute('tabindex', '0');
    await user.click(within(alpha).getByText('eu-west'));
    expect(onRowClick).toHaveBeenLastCalledWith(rows[0]);

    await user.click(screen.getByRole('searchbox'));
    // Tab past the search and sort buttons to the first row.
    for (let i = 0; i < 10 && document.activeElement?.tagName !== 'TR'; i += 1) await user.tab();
    expect(document.activeElement).toBe(alpha);
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('row', { name: /bravo/ }));
    await user.keyboard('{Enter}');
    expect(onRowClick).toHaveBeenLastCalledWith(rows[1]);
    expect(onRowClick).toHaveBeenCalledTimes(2);
  });

  it('rows are not focusable without onRowClick', () => {
    renderTable();
    expect(screen.getByRole('row', { name: /alpha/ })).not.toHaveAttribute('tabindex');
  });
});
