import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';

/**
 * A hypervisor host in a box, for tests and trying the libvirt provider on one machine: libvirtd
 * and virtlogd run in a mount namespace of their own (their own /run/libvirt, /var/lib/libvirt,
 * /etc/libvirt) and a network namespace of their own, so that every bridge, tap, router
 * namespace, NAT rule and address the driver makes lives inside it, never on the machine's own
 * interfaces. An "outside" namespace stands for the public network beyond the uplink bridge.
 *
 *   outside ns (203.0.113.1/24) ── veth ── uplink bridge `lpup` in the host ns ── routers of networks
 */

export interface LabHost {
  id: string;
  dir: string;
  /** libvirt's URI for the box's daemon. */
  uri: string;
  /** The prefix that runs a command inside the box (the driver's `run`). */
  run: string[];
  stateDir: string;
  outsideNs: string;
  hostNs: string;
  uplink: { bridge: string; gateway: string; prefixLength: number };
  publicIpPool: string;
}

const sh = (script: string) =>
  execFileSync('bash', ['-euc', script], { stdio: ['ignore', 'pipe', 'pipe'] }).toString();

export const UPLINK = { bridge: 'lpup', gateway: '203.0.113.1', prefixLength: 24 };
/** TEST-NET-3: documentation addresses, never routed anywhere. The gateway stays out of the pool. */
export const PUBLIC_POOL = '203.0.113.128/25';

export function requireTools() {
  const missing = [
    'virsh',
    'libvirtd',
    'virtlogd',
    'qemu-system-x86_64',
    'dnsmasq',
    'nft',
    // libvirt's network filters (the guests' anti-spoofing) write ebtables rules.
    'ebtables',
    'genisoimage',
    'socat',
    'nsenter',
    'unshare',
    'ip',
  ].filter((tool) => {
    try {
      execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
      return false;
    } catch {
      return true;
    }
  });
  return missing;
}

/*
 * Inside the box /run/netns is a folder of its own (mounted once the box's network namespace is
 * entered): the routers' namespaces the driver makes there never show on the machine, and go
 * with the box whatever way it ends.
 */

/**
 * libvirt probes QEMU's capabilities once per binary, which takes half a minute or more here: the
 * boxes of one machine share that cache (libvirt checks its validity itself).
 */
const CAPABILITIES_CACHE = '/var/cache/launchpad-lab/libvirt';

export async function startLabHost(
  options: { baseDir?: string; id?: string } = {},
): Promise<LabHost> {
  const id = options.id ?? randomBytes(3).toString('hex');
  const dir = path.resolve(options.baseDir ?? '/tmp', `lpbox-${id}`);
  const hostNs = `lpbox-${id}`;
  const outsideNs = `lpout-${id}`;
  for (const sub of ['run', 'lib', 'log', 'state'])
    mkdirSync(path.join(dir, sub), { recursive: true });
  mkdirSync(CAPABILITIES_CACHE, { recursive: true });
  // libvirt decides whether KVM is usable from whether /dev/kvm can be opened, and re-probes QEMU
  // (half a minute here) whenever that differs from what its last probe found. The host's node is
  // root's alone, so the probe (run as libvirt-qemu) never enables KVM and every domain definition
  // would probe again: the box gets its own node of the same device that libvirt-qemu may open.
  const kvmNode = existsSync('/dev/kvm') ? path.join(dir, 'kvm') : undefined;
  if (kvmNode && !existsSync(kvmNode)) sh(`mknod -m 0666 ${kvmNode} c 10 232`);
  const bindKvm = kvmNode ? `mount --bind ${kvmNode} /dev/kvm` : 'true';
  // QEMU runs as libvirt-qemu and must reach the disks under the state folder.
  chmodSync(dir, 0o755);
  chmodSync(path.join(dir, 'state'), 0o755);
  if (!existsSync(path.join(dir, 'etc')))
    cpSync('/etc/libvirt', path.join(dir, 'etc'), { recursive: true });
  sh(`
    ip netns add ${hostNs}
    ip netns add ${outsideNs}
    ip -n ${hostNs} link set lo up
    ip -n ${outsideNs} link set lo up
    ip -n ${hostNs} link add ${UPLINK.bridge} type bridge
    ip -n ${hostNs} link set ${UPLINK.bridge} up
    ip -n ${hostNs} link add lpo type veth peer name eth0 netns ${outsideNs}
    ip -n ${hostNs} link set lpo master ${UPLINK.bridge} up
    ip -n ${outsideNs} addr add ${UPLINK.gateway}/${UPLINK.prefixLength} dev eth0
    ip -n ${outsideNs} link set eth0 up
    mkdir -p /run/libvirt /var/lib/libvirt /var/log/libvirt /var/cache/libvirt
  `);
  const holder = spawn(
    'unshare',
    [
      '--mount',
      '--propagation',
      'private',
      '--',
      'bash',
      '-euc',
      `mount --bind ${dir}/run /run/libvirt
       mount --bind ${dir}/lib /var/lib/libvirt
       mount --bind ${dir}/log /var/log/libvirt
       mount --bind ${CAPABILITIES_CACHE} /var/cache/libvirt
       mount --bind ${dir}/etc /etc/libvirt
       ${bindKvm}
       exec nsenter --net=/run/netns/${hostNs} -- bash -euc 'mount -t tmpfs -o mode=0755 lab-netns /run/netns; virtlogd -d -p /run/libvirt/virtlogd.pid; libvirtd -d -p /run/libvirt/libvirtd.pid; echo $$ > ${dir}/holder.pid; exec sleep infinity'`,
    ],
    { detached: true, stdio: 'ignore' },
  );
  holder.unref();
  const socket = path.join(dir, 'run', 'libvirt-sock');
  const pidFile = path.join(dir, 'holder.pid');
  // The shell creates holder.pid before it writes the number: wait for the number itself.
  const holderPid = () => (existsSync(pidFile) ? readFileSync(pidFile, 'utf8').trim() : '');
  for (let i = 0; i < 100 && !(existsSync(socket) && /^\d+$/.test(holderPid())); i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const pid = holderPid();
  if (!existsSync(socket) || !/^\d+$/.test(pid))
    throw new Error(`libvirtd did not start in ${dir}`);
  const lab: LabHost = {
    id,
    dir,
    uri: `qemu+unix:///system?socket=${socket}`,
    run: ['nsenter', '-t', pid, '-m', '-n', '--'],
    stateDir: path.join(dir, 'state'),
    outsideNs,
    hostNs,
    uplink: UPLINK,
    publicIpPool: PUBLIC_POOL,
  };
  writeFileSync(path.join(dir, 'lab.json'), JSON.stringify(lab, null, 2));
  return lab;
}

/** Runs a command in the outside namespace (the public network beyond the uplink). */
export function outside(lab: LabHost, command: string[], timeoutMs = 30_000) {
  return execFileSync('ip', ['netns', 'exec', lab.outsideNs, ...command], {
    timeout: timeoutMs,
  }).toString();
}

/** Runs a shell script inside the box (the host's view). */
export function inBox(lab: LabHost, script: string, timeoutMs = 30_000) {
  return execFileSync(lab.run[0]!, [...lab.run.slice(1), 'sh', '-euc', script], {
    timeout: timeoutMs,
  }).toString();
}

/** Everything the box holds goes: guests, daemons, namespaces (its routers' too), files. */
export function stopLabHost(lab: LabHost) {
  const virsh = `virsh -q -c '${lab.uri}'`;
  try {
    sh(
      `for d in $(${virsh} list --all --name 2>/dev/null); do ${virsh} destroy "$d" >/dev/null 2>&1 || true; ${virsh} undefine "$d" >/dev/null 2>&1 || true; done`,
    );
  } catch {
    /* the daemon may be gone already */
  }
  try {
    // Processes in the box's router namespaces (dnsmasq) and the box's own daemons.
    inBox(
      lab,
      `for n in $(ls /run/netns 2>/dev/null); do for p in $(ip netns pids "$n" 2>/dev/null); do kill -9 "$p" 2>/dev/null || true; done; ip netns del "$n" 2>/dev/null || true; done`,
    );
  } catch {
    /* the box may be gone already */
  }
  sh(`
    for p in $(ip netns pids ${lab.hostNs} 2>/dev/null); do kill -9 "$p" 2>/dev/null || true; done
    for p in $(ip netns pids ${lab.outsideNs} 2>/dev/null); do kill -9 "$p" 2>/dev/null || true; done
    sleep 0.2
    ip netns del ${lab.hostNs} 2>/dev/null || true
    ip netns del ${lab.outsideNs} 2>/dev/null || true
  `);
  rmSync(lab.dir, { recursive: true, force: true });
}
