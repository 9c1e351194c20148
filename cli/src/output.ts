import { formatFields, formatTable, type Column } from './table';

export type OutputFormat = 'table' | 'json';

/** Where a command writes what it found: a table for people, JSON for scripts. */
export class Output {
  constructor(
    readonly format: OutputFormat,
    private readonly stream: NodeJS.WriteStream = process.stdout,
  ) {}

  private get color() {
    return this.stream.isTTY === true && !process.env.NO_COLOR;
  }

  line(text: string) {
    this.stream.write(`${text}\n`);
  }

  json(value: unknown) {
    this.line(JSON.stringify(value, null, 2));
  }

  /** A list: JSON as the API answered its rows, or a table of the chosen columns. */
  list<T>(rows: T[], columns: Column<T>[]) {
    if (this.format === 'json') return this.json(rows);
    this.line(rows.length === 0 ? 'Nothing to show.' : formatTable(rows, columns, this.color));
  }

  /** One resource: JSON as the API answered it, or its chosen fields. */
  record(value: unknown, fields: [string, string | number | boolean | null | undefined][]) {
    if (this.format === 'json') return this.json(value);
    this.line(formatFields(fields));
  }

  /** What an action did: a sentence, or `{ message, ...extra }` in JSON. */
  done(message: string, extra: Record<string, unknown> = {}) {
    if (this.format === 'json') return this.json({ message, ...extra });
    this.line(message);
  }
}
