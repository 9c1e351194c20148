import { sha512Crypt } from './libvirt/sha512-crypt';

/** What a guest learns at first boot from cloud-init (a NoCloud seed, or a config drive). */
export interface SeedInput {
  instanceId: string;
  hostname: string;
  username: string;
  password: string;
  /** OpenSSH lines, each put in the user's authorized_keys. */
  authorizedKeys: string[];
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
    ...input.authorizedKeys.map((key) => `      - ${quoted(key.trim())}`),
    'ssh_pwauth: true',
    '',
  ].join('\n');
  return { metaData, userData };
}
