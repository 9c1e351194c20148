import { parseArgs } from 'node:util';
import type { Command, OptionSpec } from './command';
import { eventCommands } from './commands/events';
import { loginCommands } from './commands/login';
import { networkCommands } from './commands/networks';
import { teamCommands } from './commands/teams';
import { vmCreateCommands } from './commands/vm-create';
import { vmCommands } from './commands/vms';
import { loadCredentials } from './config';
import { CliError, exitCodes, usageError } from './errors';
import { commandHelp, generalHelp, globalOptions, usageOf } from './help';
import { Api } from './http';
import { Output } from './output';

const commands: Command[] = [
  ...loginCommands,
  ...vmCommands,
  ...vmCreateCommands,
  ...networkCommands,
  ...teamCommands,
  ...eventCommands,
];

type ParseOptions = Record<string, { type: 'string' | 'boolean'; short?: string }>;
const parseOptions = (specs: Record<string, OptionSpec>): ParseOptions =>
  Object.fromEntries(
    Object.entries(specs).map(([name, s]) => [
      name,
      s.short ? { type: s.type, short: s.short } : { type: s.type },
    ]),
  );

/** The command the leading words name, the longest match first (`vm list` before `vm`). */
function findCommand(words: string[]): Command | undefined {
  return commands
    .filter((c) => c.path.every((word, i) => words[i] === word))
    .sort((a, b) => b.path.length - a.path.length)[0];
}

async function main(argv: string[]): Promise<void> {
  // A first, lenient pass knows every option, so that an option's value is not taken for a word.
  const every = Object.assign({}, globalOptions, ...commands.map((c) => c.options ?? {}));
  const loose = parseArgs({
    args: argv,
    options: parseOptions(every),
    strict: false,
    allowPositionals: true,
  });
  const command = findCommand(loose.positionals);
  if (!command) {
    // `launchpad --help`, or `launchpad vm --help`: the commands of that group.
    const group = commands.filter((c) => loose.positionals.every((word, i) => c.path[i] === word));
    if (loose.values.help && group.length > 0) {
      process.stdout.write(`${generalHelp(group)}\n`);
      return;
    }
    const words = loose.positionals.join(' ');
    throw usageError(
      words ? `Unknown command: ${words}` : 'No command given',
      'Usage: launchpad <command> [options]; "launchpad --help" lists the commands',
    );
  }
  if (loose.values.help) {
    process.stdout.write(`${commandHelp(command)}\n`);
    return;
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: parseOptions({ ...command.options, ...globalOptions }),
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    throw usageError(error instanceof Error ? error.message : String(error), usageOf(command));
  }
  const args = parsed.positionals.slice(command.path.length);
  const expected = command.args?.length ?? 0;
  if (args.length !== expected) {
    throw usageError(
      args.length < expected
        ? `Missing ${command.args![args.length]}`
        : `Unexpected argument: ${args[expected]}`,
      usageOf(command),
    );
  }
  const format = parsed.values.output ?? 'table';
  if (format !== 'table' && format !== 'json') {
    throw usageError(`--output must be table or json, not "${String(format)}"`, usageOf(command));
  }
  let api: Api | undefined;
  try {
    await command.run({
      args,
      options: parsed.values,
      output: new Output(format),
      api: () => (api ??= new Api(loadCredentials())),
    });
  } catch (error) {
    // A bad argument the server named is still the command's usage's business.
    if (error instanceof CliError && error.code === exitCodes.usage && !error.usage) {
      throw new CliError(error.message, error.code, usageOf(command));
    }
    throw error;
  }
}

try {
  await main(process.argv.slice(2));
} catch (error) {
  if (error instanceof CliError) {
    console.error(`launchpad: ${error.message}`);
    if (error.usage) console.error(error.usage);
    process.exitCode = error.code;
  } else {
    console.error(
      `launchpad: unexpected error: ${error instanceof Error ? error.stack : String(error)}`,
    );
    process.exitCode = exitCodes.failed;
  }
}
