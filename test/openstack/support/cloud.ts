import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * The all-in-one OpenStack of `scripts/openstack/up.sh`, as its suites see it: they run inside its
 * namespace (`npm run test:openstack`), with its administrator's settings from `env.sh`.
 */
export const state = process.env.OS_STATE ?? '/tmp/launchpad-openstack';
const outside = process.env.OS_OUTSIDE_NETNS ?? 'lpos-out';

/** Where up.sh keeps a service's pid. */
export const pidFileOf = (service: string) => `${state}/run/${service}.pid`;
export const pidOf = (service: string) => Number(readFileSync(pidFileOf(service), 'utf8').trim());

/** The application credential up.sh made for one of the product's projects. */
export const credentialOf = (project: 'launchpad' | 'launchpad-b') =>
  JSON.parse(readFileSync(`${state}/${project}-credential.json`, 'utf8')) as {
    id: string;
    secret: string;
  };

/** The region the lab cloud serves, with its test image; the product's addresses are .64/26. */
export const labRegion = (flavors: Record<string, string>) => ({
  key: 'os-1',
  countryCode: 'IS',
  countryName: 'Iceland',
  name: 'Lab',
  city: 'Reykjavik',
  publicIpPool: '203.0.113.64/26',
  externalNetwork: 'public',
  images: [
    { key: 'busybox', name: 'Test image', username: 'launchpad', glanceImage: 'launchpad-busybox' },
  ],
  flavors,
});

/** One provider of the product's catalogue: a project of the lab cloud, by its credential. */
export function labProvider(input: {
  key: string;
  name: string;
  project: 'launchpad' | 'launchpad-b';
  flavors: Record<string, string>;
  secret?: string;
}) {
  const credential = credentialOf(input.project);
  return {
    key: input.key,
    name: input.name,
    authUrl: 'http://127.0.0.1:5000/v3',
    auth: {
      applicationCredentialId: credential.id,
      applicationCredentialSecret: input.secret ?? credential.secret,
    },
    regions: [labRegion(input.flavors)],
  };
}

export async function until<T>(
  what: string,
  read: () => Promise<T | undefined | null | false>,
  seconds = 180,
) {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** What an HTTP GET from outside the cloud answers ('' when nothing does). */
export const fromOutside = (url: string) => {
  try {
    return execFileSync('ip', ['netns', 'exec', outside, 'curl', '-s', '-m', '2', url], {
      encoding: 'utf8',
    });
  } catch {
    return '';
  }
};

/** A command run in a guest over SSH to its floating IP from outside, as `user` with `key`. */
export const sshFromOutside = (address: string, user: string, key: string, command: string) =>
  execFileSync(
    'ip',
    [
      ...['netns', 'exec', outside, 'ssh'],
      ...['-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null'],
      ...['-o', 'ConnectTimeout=10', '-o', 'LogLevel=ERROR', '-o', 'IdentitiesOnly=yes'],
      ...['-i', key, `${user}@${address}`, command],
    ],
    { encoding: 'utf8', timeout: 60_000 },
  );

/**
 * `sshFromOutside` once the guest lets the key in: tried every second (a guest still booting
 * refuses or cannot be routed to yet) until it answers with some output, for `seconds`. Given the
 * server's id, a timeout says what its console last printed.
 */
export const sshWhenUp = async (
  address: string,
  user: string,
  key: string,
  command: string,
  seconds = 300,
  serverId?: string,
) => {
  try {
    return await until(
      `SSH to ${address}`,
      async () => {
        try {
          return sshFromOutside(address, user, key, command);
        } catch {
          return '';
        }
      },
      seconds,
    );
  } catch (error) {
    if (!serverId) throw error;
    throw new Error(
      `${(error as Error).message}; its console's last lines:\n${consoleTail(serverId)}`,
      { cause: error },
    );
  }
};

const consoleTail = (serverId: string) => {
  try {
    return execFileSync('openstack', ['console', 'log', 'show', '--lines', '40', serverId], {
      encoding: 'utf8',
    });
  } catch (error) {
    return `(unreadable: ${(error as Error).message})`;
  }
};

/** The OpenStack CLI as the cloud's administrator, its JSON answer read. */
export function openstack<T = unknown>(...args: string[]): T {
  return JSON.parse(execFileSync('openstack', [...args, '-f', 'json'], { encoding: 'utf8' })) as T;
}

/**
 * Removes what the product made in a project of the lab cloud (tagged with the region): servers,
 * floating IPs, routers, ports, networks. A journey starts and ends with this, as a fresh product
 * would choose the same addresses again.
 */
export function removeProductResources(project: 'launchpad' | 'launchpad-b', regionKey = 'os-1') {
  const tag = `lp-region-${regionKey}`;
  const ids = (...args: string[]) =>
    openstack<{ ID: string }[]>(...args, '--project', project).map((row) => row.ID);
  const run = (...args: string[]) => execFileSync('openstack', args, { stdio: 'ignore' });
  for (const id of ids('server', 'list')) run('server', 'delete', '--wait', id);
  for (const id of ids('floating', 'ip', 'list')) run('floating', 'ip', 'delete', id);
  for (const id of ids('router', 'list', '--tags', tag)) {
    for (const port of openstack<{ ID: string }[]>('port', 'list', '--router', id)) {
      const owner = openstack<{ device_owner: string; fixed_ips: { subnet_id: string }[] }>(
        'port',
        'show',
        port.ID,
      );
      if (owner.device_owner === 'network:router_interface')
        run('router', 'remove', 'subnet', id, owner.fixed_ips[0]!.subnet_id);
    }
    run('router', 'delete', id);
  }
  for (const id of ids('port', 'list', '--tags', tag)) run('port', 'delete', id);
  for (const id of ids('network', 'list', '--tags', tag)) run('network', 'delete', id);
}
