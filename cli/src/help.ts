import type { Command, OptionSpec } from './command';

export const globalOptions: Record<string, OptionSpec> = {
  output: {
    type: 'string',
    short: 'o',
    value: 'format',
    description: 'table (default) or json',
  },
  help: { type: 'boolean', short: 'h', description: 'show help' },
};

export const usageOf = (command: Command) =>
  `Usage: launchpad ${[...command.path, ...(command.args ?? [])].join(' ')}${
    Object.keys(command.options ?? {}).length ? ' [options]' : ''
  }`;

function optionLines(options: Record<string, OptionSpec>): string[] {
  const names = Object.entries(options).map(
    ([name, spec]) =>
      `${spec.short ? `-${spec.short}, ` : '    '}--${name}${spec.value ? ` <${spec.value}>` : ''}`,
  );
  const width = Math.max(...names.map((n) => n.length));
  return Object.values(options).map(
    (spec, i) => `  ${names[i]!.padEnd(width)}  ${spec.description}`,
  );
}

export function commandHelp(command: Command): string {
  return [
    usageOf(command),
    '',
    `${command.summary[0]!.toUpperCase()}${command.summary.slice(1)}.`,
    '',
    'Options:',
    ...optionLines({ ...command.options, ...globalOptions }),
    ...(command.notes?.length ? ['', ...command.notes] : []),
  ].join('\n');
}

export function generalHelp(commands: Command[]): string {
  const names = commands.map((c) => [...c.path, ...(c.args ?? [])].join(' '));
  const width = Math.max(...names.map((n) => n.length));
  return [
    'Usage: launchpad <command> [options]',
    '',
    'Commands:',
    ...commands.map((c, i) => `  ${names[i]!.padEnd(width)}  ${c.summary}`),
    '',
    'Global options:',
    ...optionLines(globalOptions),
    '',
    'Run "launchpad <command> --help" for its options. Configure with "launchpad login",',
    'or LAUNCHPAD_URL and LAUNCHPAD_TOKEN.',
  ].join('\n');
}
