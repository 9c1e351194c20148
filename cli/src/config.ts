import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { CliError, exitCodes } from './errors';

export interface Credentials {
  /** The server's address, as the console is opened (the API is under `api/v1`). */
  url: string;
  token: string;
}

type Env = Record<string, string | undefined>;

/** `$XDG_CONFIG_HOME/launchpad/config.json`, else `~/.config/launchpad/config.json`. */
export function configPath(env: Env = process.env): string {
  const base = env.XDG_CONFIG_HOME || path.join(homedir(), '.config');
  return path.join(base, 'launchpad', 'config.json');
}

function readFile(file: string): Partial<Credentials> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return {};
  }
  try {
    const value = JSON.parse(text) as Partial<Record<keyof Credentials, unknown>>;
    return {
      url: typeof value.url === 'string' ? value.url : undefined,
      token: typeof value.token === 'string' ? value.token : undefined,
    };
  } catch {
    throw new CliError(`${file} is not valid JSON: run "launchpad login" again`, exitCodes.usage);
  }
}

/** The stored credentials, each overridden by `LAUNCHPAD_URL` / `LAUNCHPAD_TOKEN`. */
export function loadCredentials(env: Env = process.env): Credentials {
  const stored = readFile(configPath(env));
  const url = env.LAUNCHPAD_URL || stored.url;
  const token = env.LAUNCHPAD_TOKEN || stored.token;
  if (!url || !token) {
    throw new CliError(
      `No ${url ? 'token' : 'server URL'} configured: run "launchpad login", or set LAUNCHPAD_URL and LAUNCHPAD_TOKEN`,
      exitCodes.unauthenticated,
    );
  }
  return { url, token };
}

/** Writes the file readable by its owner only (0600), in a directory only they may enter (0700). */
export function saveCredentials(credentials: Credentials, env: Env = process.env): string {
  const file = configPath(env);
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // mkdir leaves an existing directory's mode alone, and the umask narrows a new one's.
  chmodSync(dir, 0o700);
  writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return file;
}
