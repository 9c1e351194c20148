export interface Column<T> {
  header: string;
  value: (row: T) => string | number | boolean | null | undefined;
  /** Numbers read best aligned to the right. */
  align?: 'left' | 'right';
}

const BOLD = '\u001b[1m';
const RESET = '\u001b[0m';

const text = (value: string | number | boolean | null | undefined) =>
  value === null || value === undefined || value === '' ? '-' : String(value);

/**
 * Rows as aligned columns separated by two spaces, a header first; the header is bold only when
 * `color` is set (a terminal), so that a pipe or a file gets plain text.
 */
export function formatTable<T>(rows: T[], columns: Column<T>[], color = false): string {
  const cells = rows.map((row) => columns.map((c) => text(c.value(row)).replace(/\s+/g, ' ')));
  const widths = columns.map((c, i) =>
    Math.max(c.header.length, ...cells.map((line) => line[i]!.length)),
  );
  const pad = (value: string, i: number) =>
    columns[i]!.align === 'right' ? value.padStart(widths[i]!) : value.padEnd(widths[i]!);
  const join = (line: string[]) => line.map(pad).join('  ').replace(/\s+$/, '');
  const header = join(columns.map((c) => c.header.toUpperCase()));
  return [color ? `${BOLD}${header}${RESET}` : header, ...cells.map(join)].join('\n');
}

/** A record as `Key: value` lines, the keys aligned. */
export function formatFields(fields: [string, string | number | boolean | null | undefined][]) {
  const width = Math.max(...fields.map(([key]) => key.length));
  return fields.map(([key, value]) => `${`${key}:`.padEnd(width + 1)} ${text(value)}`).join('\n');
}
