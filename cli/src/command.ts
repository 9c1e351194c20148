import type { Api } from './http';
import type { Output } from './output';

export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  /** The value's name in help, for a string option. */
  value?: string;
  description: string;
}

export interface Context {
  /** The command's own positional arguments (after its name). */
  args: string[];
  options: Record<string, string | boolean | undefined>;
  output: Output;
  /** The API with the configured URL and token; throws when there are none. */
  api(): Api;
}

export interface Command {
  /** The words that name it: `['vm', 'list']`. */
  path: string[];
  /** Positional arguments, as shown in the usage line: `<id>`. */
  args?: string[];
  summary: string;
  options?: Record<string, OptionSpec>;
  /** Lines of examples or notes shown under the options in `--help`. */
  notes?: string[];
  run(context: Context): Promise<void>;
}

export const waitOptions: Record<string, OptionSpec> = {
  wait: { type: 'boolean', description: 'block until the operation ends; non-zero if it failed' },
  timeout: {
    type: 'string',
    value: 'seconds',
    description: 'with --wait, give up after this long (default 1200)',
  },
};

export const pageOptions: Record<string, OptionSpec> = {
  search: { type: 'string', value: 'text', description: 'only rows matching the text' },
  page: { type: 'string', value: 'n', description: 'the page to show (default 1)' },
  limit: { type: 'string', value: 'n', description: 'rows a page, 1-100 (default 50)' },
};
