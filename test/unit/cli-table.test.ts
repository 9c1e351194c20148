import { describe, expect, it } from 'vitest';
import { formatFields, formatTable, type Column } from '../../cli/src/table';

interface Row {
  id: number;
  name: string;
  note: string | null;
}

const columns: Column<Row>[] = [
  { header: 'id', value: (r) => r.id, align: 'right' },
  { header: 'name', value: (r) => r.name },
  { header: 'note', value: (r) => r.note },
];

describe('the CLI table', () => {
  it('aligns the columns under an upper-case header, numbers to the right', () => {
    const table = formatTable(
      [
        { id: 7, name: 'web', note: 'first' },
        { id: 1234, name: 'database-primary', note: null },
      ],
      columns,
    );
    expect(table.split('\n')).toEqual([
      '  ID  NAME              NOTE',
      '   7  web               first',
      '1234  database-primary  -',
    ]);
  });

  it('keeps a value with line breaks on its row', () => {
    const table = formatTable([{ id: 1, name: 'a\nb', note: 'x' }], columns);
    expect(table.split('\n')[1]).toBe(' 1  a b   x');
  });

  it('is plain text unless told it writes to a terminal', () => {
    expect(formatTable([], columns)).not.toContain('\u001b[');
    expect(formatTable([], columns, true)).toBe('\u001b[1mID  NAME  NOTE\u001b[0m');
  });

  it('lines up the keys of a record', () => {
    expect(
      formatFields([
        ['ID', 3],
        ['Status', 'Running'],
        ['Team', null],
      ]),
    ).toBe('ID:     3\nStatus: Running\nTeam:   -');
  });
});
