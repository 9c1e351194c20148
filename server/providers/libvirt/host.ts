import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EngineRejection, ProviderRejection, ProviderUnavailable } from '../driver';
import type { LibvirtHostConfig } from './config';

export interface CommandResult {
  stdout: string;
  stderr: string;
}

/** What libvirt says when it cannot be reached at all (the daemon is down, or the host is). */
const UNREACHABLE =
  /failed to connect to the hypervisor|Failed to connect socket|Connection refused|Cannot recv data|End of file while reading data|No route to host|Connection timed out|ssh: connect to host/i;

/** virsh's own words without its `error:` prefixes, on one line. */
export function libvirtMessage(stderr: string): string {
  return stderr
    .split('\n')
    .map((line) => line.replace(/^error:\s*/i, '').trim())
    .filter(Boolean)
    .join(': ');
}

function run(
  file: string,
  args: string[],
  input: string | Buffer | undefined,
  timeoutMs: number,
): Promise<CommandResult & { code: number }> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      file,
      args,
      { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') {
          // Not an exit status: the program is missing, or it was killed by the time-out.
          reject(new ProviderUnavailable(`${file}: ${error.message}`));
          return;
        }
        resolve({ stdout, stderr, code: error ? Number(error.code) : 0 });
      },
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}

/**
 * One hypervisor host: libvirt through `virsh -c <uri>`, and shell commands (the network
 * plumbing, the console stream) through the host's `run` prefix.
 */
export class LibvirtHost {
  readonly key: string;
  readonly uri: string;
  readonly prefix: readonly string[];

  constructor(config: LibvirtHostConfig) {
    this.key = config.key;
    this.uri = config.uri;
    this.prefix = config.run;
  }

  /**
   * A virsh command. libvirt unreachable -> ProviderUnavailable (the caller retries later);
   * any other refusal -> EngineRejection with libvirt's reason (for the log: it names the host's
   * paths and state). `file` is written to a private
   * temporary file whose path replaces the `FILE` argument (virsh reads XML and uploads from files
   * on this machine, whatever host it talks to; a pipe as /dev/stdin is refused).
   */
  async virsh(args: string[], options: { file?: string | Buffer; timeoutMs?: number } = {}) {
    let dir: string | undefined;
    if (options.file !== undefined) {
      dir = await mkdtemp(path.join(tmpdir(), 'launchpad-virsh-'));
      const file = path.join(dir, 'input');
      await writeFile(file, options.file, { mode: 0o600 });
      args = args.map((arg) => (arg === 'FILE' ? file : arg));
    }
    const result = await run(
      'virsh',
      ['-q', '-c', this.uri, ...args],
      undefined,
      options.timeoutMs ?? 60_000,
    ).finally(() => dir && rm(dir, { recursive: true, force: true }));
    if (result.code !== 0) {
      const message = libvirtMessage(result.stderr) || `virsh ${args[0]} failed`;
      if (UNREACHABLE.test(result.stderr)) {
        throw new ProviderUnavailable(`libvirt at ${this.key} is unreachable: ${message}`);
      }
      throw new EngineRejection(message);
    }
    return result.stdout;
  }

  /** virsh, answering null where libvirt says the object does not exist. */
  async virshMaybe(args: string[], missing: RegExp) {
    try {
      return await this.virsh(args);
    } catch (error) {
      if (error instanceof ProviderRejection && missing.test(error.message)) return null;
      throw error;
    }
  }

  /** A shell script run on the host (`sh -s`), fed on standard input. */
  async sh(script: string, options: { timeoutMs?: number } = {}): Promise<string> {
    const [file, ...rest] = [...this.prefix, 'sh', '-s'];
    const result = await run(file!, rest, `set -eu\n${script}`, options.timeoutMs ?? 60_000);
    if (result.code !== 0) {
      throw new ProviderUnavailable(
        `A host command on ${this.key} failed: ${result.stderr.trim().split('\n').slice(-3).join(' ') || `exit ${result.code}`}`,
      );
    }
    return result.stdout;
  }

  /** The argv that runs `command` on the host (for long-lived streams). */
  command(command: string[]): string[] {
    return [...this.prefix, ...command];
  }
}
