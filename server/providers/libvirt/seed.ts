import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ProviderUnavailable } from '../driver';
import { sha512Crypt } from './sha512-crypt';

/** What the guest learns at first boot, through a cloud-init NoCloud seed. */
export interface SeedInput {
  instanceId: string;
  hostname: string;
  username: string;
  password: string;
  publicKey: string;
}

/** A YAML scalar in single quotes (the only escape is a doubled quote). */
const quoted = (value: string) => `'${value.replace(/'/g, "''")}'`;

/** A host name from the VM's name: letters, digits and hyphens, at most 63. */
export function hostnameOf(name: string): string {
  const cleaned = name
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63)
    .replace(/-+$/, '');
  return cleaned || 'server';
}

export function seedFiles(input: SeedInput): { metaData: string; userData: string } {
  const metaData = `instance-id: ${quoted(input.instanceId)}\nlocal-hostname: ${quoted(input.hostname)}\n`;
  const userData = [
    '#cloud-config',
    `hostname: ${quoted(input.hostname)}`,
    'users:',
    `  - name: ${quoted(input.username)}`,
    '    lock_passwd: false',
    `    passwd: ${quoted(sha512Crypt(input.password))}`,
    '    shell: /bin/sh',
    "    sudo: 'ALL=(ALL) NOPASSWD:ALL'",
    '    ssh_authorized_keys:',
    `      - ${quoted(input.publicKey.trim())}`,
    'ssh_pwauth: true',
    '',
  ].join('\n');
  return { metaData, userData };
}

const exec = promisify(execFile);

/** The seed as an ISO 9660 volume labelled `cidata`, the NoCloud data source's form. */
export async function seedIso(input: SeedInput): Promise<Buffer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'launchpad-seed-'));
  try {
    const { metaData, userData } = seedFiles(input);
    await writeFile(path.join(dir, 'meta-data'), metaData, { mode: 0o600 });
    await writeFile(path.join(dir, 'user-data'), userData, { mode: 0o600 });
    const iso = path.join(dir, 'seed.iso');
    try {
      await exec('genisoimage', [
        '-quiet',
        '-output',
        iso,
        '-volid',
        'cidata',
        '-joliet',
        '-rock',
        path.join(dir, 'user-data'),
        path.join(dir, 'meta-data'),
      ]);
    } catch (error) {
      throw new ProviderUnavailable(
        `The cloud-init seed could not be made (is genisoimage installed?): ${error instanceof Error ? error.message : error}`,
      );
    }
    return await readFile(iso);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
