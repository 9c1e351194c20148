import { parseCidr, numberToIp } from '../../../src/api/contract/ip';
import type { NetworkSpec } from '../driver';
import type { LibvirtHost } from './host';

/**
 * A product network on a host, built as Neutron's Linux-bridge agent builds one:
 * - a bridge with no address, where the guests' taps are plugged;
 * - for a standard network, a router namespace holding the gateway address (a veth into the
 *   bridge), the SNAT and public addresses (`wan`, a veth into the uplink bridge), dnsmasq serving only the
 *   reserved MAC -> IP pairs with the network's router and DNS options, and nftables for SNAT and
 *   the 1:1 NAT of public addresses. Namespaces keep companies' overlapping blocks apart.
 * A custom network (layer 2 only) is the bridge alone.
 * Every step is idempotent: `apply` brings the host to the desired state whatever it finds.
 */

export interface NetworkNames {
  bridge: string;
  namespace: string;
  gatewayVeth: string;
  uplinkVeth: string;
  /** The VXLAN device that carries the network to the region's other hosts. */
  tunnel: string;
  /** Its VXLAN network identifier. */
  vni: number;
  dir: string;
}

export const id36 = (id: number) => id.toString(36);

export function networkNames(prefix: string, stateDir: string, networkId: number): NetworkNames {
  const id = id36(networkId);
  return {
    bridge: `${prefix}b${id}`,
    namespace: `${prefix}-router-${id}`,
    gatewayVeth: `${prefix}g${id}`,
    uplinkVeth: `${prefix}u${id}`,
    tunnel: `${prefix}v${id}`,
    vni: networkId,
    dir: `${stateDir}/networks/${id}`,
  };
}

export const tapName = (prefix: string, portId: number) => `${prefix}t${id36(portId)}`;

export interface PortBinding {
  macAddress: string;
  fixedIp: string | null;
  publicIp: string | null;
}

export interface Uplink {
  bridge: string;
  gateway: string;
  prefixLength: number;
}

/** Only addresses, MACs and names the driver made reach a script; this refuses anything else. */
function safe(value: string): string {
  if (!/^[A-Za-z0-9.:/_-]+$/.test(value))
    throw new Error(`Unsafe value for a host command: ${value}`);
  return value;
}

const netmaskOf = (prefix: number) =>
  numberToIp(prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0);

/** Who dnsmasq runs as once started (each hypervisor host needs the user). */
export const DNSMASQ_USER = 'dnsmasq';

export function dnsmasqConf(names: NetworkNames, spec: NetworkSpec, mtu?: number): string {
  const cidr = parseCidr(spec.cidr)!;
  const lines = [
    `pid-file=${names.dir}/dnsmasq.pid`,
    `dhcp-leasefile=${names.dir}/leases`,
    `dhcp-hostsfile=${names.dir}/hosts`,
    'interface=gw',
    'bind-interfaces',
    'except-interface=lo',
    'port=0',
    'no-resolv',
    'no-hosts',
    'no-ping',
    'dhcp-authoritative',
    // Root only to open its socket, its pid and lease files; then the unprivileged user Debian's
    // dnsmasq-base makes (a guest's DHCP packets reach a process that holds nothing of the host).
    `user=${DNSMASQ_USER}`,
    // Only the reserved MACs get an address: the product chose every one of them.
    `dhcp-range=${numberToIp(cidr.network)},static,${netmaskOf(cidr.prefix)},1h`,
    spec.defaultRoute
      ? `dhcp-option=option:router,${spec.defaultRoute}`
      : 'dhcp-option=option:router',
    spec.dnsServers.length > 0
      ? `dhcp-option=option:dns-server,${spec.dnsServers.join(',')}`
      : 'dhcp-option=option:dns-server',
    ...(mtu ? [`dhcp-option=option:mtu,${mtu}`] : []),
  ];
  // Written through a quoted here-document: a line only has to stay one line of plain characters.
  for (const line of lines) {
    if (!/^[A-Za-z0-9.:/_=,-]+$/.test(line)) throw new Error(`Unsafe dnsmasq option: ${line}`);
  }
  return `${lines.join('\n')}\n`;
}

export function natRules(spec: NetworkSpec, ports: PortBinding[]): string {
  const mapped = ports.filter((p) => p.publicIp && p.fixedIp);
  const dnat = mapped.map(
    (p) => `    iifname "wan" ip daddr ${safe(p.publicIp!)} dnat to ${safe(p.fixedIp!)}`,
  );
  const snat = mapped.map(
    (p) => `    oifname "wan" ip saddr ${safe(p.fixedIp!)} snat to ${safe(p.publicIp!)}`,
  );
  if (spec.snatIp)
    snat.push(`    oifname "wan" ip saddr ${safe(spec.cidr)} snat to ${safe(spec.snatIp)}`);
  return `table ip launchpad
delete table ip launchpad
table ip launchpad {
  chain prerouting {
    type nat hook prerouting priority dstnat; policy accept;
${dnat.join('\n')}
  }
  chain postrouting {
    type nat hook postrouting priority srcnat; policy accept;
${snat.join('\n')}
  }
}
`;
}

/** The script that brings a network on a host to `spec` with `ports`. */
/**
 * The network's layer 2 between the hosts of a region: a VXLAN device in the bridge, flooding to
 * every other host (head-end replication; the bridges learn where each MAC is).
 */
export interface Tunnel {
  local: string;
  remotes: string[];
}

/** Room for VXLAN's 50 bytes inside a 1500-byte underlay. */
const TUNNEL_MTU = 1450;

/**
 * Changes to one network on a host take turns (several VMs built at once each apply it, from one
 * process or several): the script holds a lock on the network for as long as it runs.
 */
function locked(names: NetworkNames, script: string): string {
  const dir = safe(names.dir);
  return `mkdir -p "$(dirname ${dir})"
exec 9>${dir}.lock
flock 9
${script}`;
}

function tunnelScript(names: NetworkNames, tunnel: Tunnel | undefined): string {
  const v = safe(names.tunnel);
  if (!tunnel) return `ip link del ${v} 2>/dev/null || true\n`;
  const flood = tunnel.remotes
    .map((remote) => `bridge fdb append 00:00:00:00:00:00 dev ${v} dst ${safe(remote)}`)
    .join('\n');
  return `ip link del ${v} 2>/dev/null || true
ip link add ${v} type vxlan id ${names.vni} local ${safe(tunnel.local)} dstport 4789 nolearning
ip link set dev ${v} mtu ${TUNNEL_MTU} master ${safe(names.bridge)} up
${flood}
`;
}

/**
 * The script that brings a network on a host to `spec` with `ports`. The router (gateway, DHCP,
 * SNAT and NAT) lives on the region's network host (`routed`); other hosts have the bridge and
 * its tunnel alone.
 */
export function applyScript(input: {
  names: NetworkNames;
  spec: NetworkSpec;
  ports: PortBinding[];
  uplink: Uplink;
  routed: boolean;
  tunnel?: Tunnel;
}): string {
  const { names, spec, ports, uplink } = input;
  const n = {
    br: safe(names.bridge),
    ns: safe(names.namespace),
    g: safe(names.gatewayVeth),
    u: safe(names.uplinkVeth),
    dir: safe(names.dir),
  };
  const bridge = `ip link show dev ${n.br} >/dev/null 2>&1 || ip link add ${n.br} type bridge
ip link set dev ${n.br} up
${tunnelScript(names, input.tunnel)}`;
  // A custom network has no router anywhere; another host than the network host has none either.
  const routed = input.routed && spec.gatewayIp !== null && spec.snatIp !== null;
  if (!routed) return locked(names, bridge);

  const cidr = parseCidr(spec.cidr)!;
  const hosts = ports
    .filter((p) => p.fixedIp)
    .map((p) => `${safe(p.macAddress)},${safe(p.fixedIp!)}`)
    .join('\n');
  const macs = ports.map((p) => safe(p.macAddress.toLowerCase())).join(' ');
  const upAddresses = [spec.snatIp!, ...ports.flatMap((p) => (p.publicIp ? [p.publicIp] : []))]
    .map((a) => `${safe(a)}/${uplink.prefixLength}`)
    .join(' ');
  return locked(
    names,
    `${bridge}mkdir -p ${n.dir}
# dnsmasq, as its user, reads the reservations again on each HUP.
chmod 0755 ${n.dir}
# A namespace file left without its namespace (a crash) is made again.
ip -n ${n.ns} link show lo >/dev/null 2>&1 || { ip netns del ${n.ns} 2>/dev/null || true; ip netns add ${n.ns}; }
ip -n ${n.ns} link set lo up
ip link show dev ${n.g} >/dev/null 2>&1 || ip link add ${n.g} type veth peer name gw netns ${n.ns}
ip link set dev ${n.g} master ${n.br} up
ip link show dev ${n.u} >/dev/null 2>&1 || ip link add ${n.u} type veth peer name wan netns ${n.ns}
ip link set dev ${n.u} master ${safe(uplink.bridge)} up
ip netns exec ${n.ns} sysctl -qw net.ipv4.ip_forward=1 net.ipv4.conf.all.promote_secondaries=1
ip -n ${n.ns} link set dev gw up
ip -n ${n.ns} link set dev wan up
want=" ${safe(spec.gatewayIp!)}/${cidr.prefix} "
for a in $(ip -n ${n.ns} -4 -o addr show dev gw | awk '{print $4}'); do case "$want" in *" $a "*) ;; *) ip -n ${n.ns} addr del "$a" dev gw ;; esac; done
for a in $want; do ip -n ${n.ns} addr add "$a" dev gw 2>/dev/null || true; done
want=" ${upAddresses} "
for a in $(ip -n ${n.ns} -4 -o addr show dev wan | awk '{print $4}'); do case "$want" in *" $a "*) ;; *) ip -n ${n.ns} addr del "$a" dev wan ;; esac; done
for a in $want; do ip -n ${n.ns} addr add "$a" dev wan 2>/dev/null || true; done
ip -n ${n.ns} route replace default via ${safe(uplink.gateway)} dev wan
ip netns exec ${n.ns} nft -f - <<'NFT'
${natRules(spec, ports)}NFT
cat > ${n.dir}/hosts <<'HOSTS'
${hosts}
HOSTS
chmod 0644 ${n.dir}/hosts
cat > ${n.dir}/dnsmasq.conf.new <<'CONF'
${dnsmasqConf(names, spec, input.tunnel ? TUNNEL_MTU : undefined)}CONF
running=no
if [ -f ${n.dir}/dnsmasq.pid ] && kill -0 "$(cat ${n.dir}/dnsmasq.pid)" 2>/dev/null; then running=yes; fi
# Leases of MACs that left the network go too: they would otherwise outlive their ports.
stale=no
if [ -f ${n.dir}/leases ]; then
  for m in $(awk '{print tolower($2)}' ${n.dir}/leases); do case " ${macs} " in *" $m "*) ;; *) stale=yes ;; esac; done
fi
if [ $running = yes ] && [ $stale = no ] && cmp -s ${n.dir}/dnsmasq.conf.new ${n.dir}/dnsmasq.conf; then
  kill -HUP "$(cat ${n.dir}/dnsmasq.pid)"
  rm -f ${n.dir}/dnsmasq.conf.new
else
  if [ $running = yes ]; then
    pid=$(cat ${n.dir}/dnsmasq.pid); kill "$pid"
    for i in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  fi
  if [ -f ${n.dir}/leases ]; then
    awk -v keep=" ${macs} " 'index(keep, " " tolower($2) " ") > 0' ${n.dir}/leases > ${n.dir}/leases.new || true
    mv ${n.dir}/leases.new ${n.dir}/leases
  fi
  mv ${n.dir}/dnsmasq.conf.new ${n.dir}/dnsmasq.conf
  touch ${n.dir}/leases
  chown ${DNSMASQ_USER} ${n.dir}/leases
  ip netns exec ${n.ns} dnsmasq --conf-file=${n.dir}/dnsmasq.conf
fi
`,
  );
}

function removeRouterScript(names: NetworkNames): string {
  const ns = safe(names.namespace);
  const dir = safe(names.dir);
  return `if [ -f ${dir}/dnsmasq.pid ]; then
  pid=$(cat ${dir}/dnsmasq.pid)
  kill "$pid" 2>/dev/null || true
  for i in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
fi
[ ! -e /run/netns/${ns} ] || ip netns del ${ns}
ip link del ${safe(names.gatewayVeth)} 2>/dev/null || true
ip link del ${safe(names.uplinkVeth)} 2>/dev/null || true
rm -rf ${dir}
`;
}

/** Everything of the network on the host goes: router, dnsmasq, leases, veths, bridge. */
export function removeScript(names: NetworkNames): string {
  return locked(
    names,
    `${removeRouterScript(names)}ip link del ${safe(names.tunnel)} 2>/dev/null || true
ip link del ${safe(names.bridge)} 2>/dev/null || true
rm -f ${safe(names.dir)}.lock
`,
  );
}

/** Which MACs hold a DHCP lease on the network (a guest that asked for its address has booted). */
export async function leasedMacs(host: LibvirtHost, names: NetworkNames): Promise<Set<string>> {
  const out = await host.sh(`cat ${safe(names.dir)}/leases 2>/dev/null || true\n`);
  return new Set(
    out
      .split('\n')
      .map((line) => line.split(' ')[1]?.toLowerCase())
      .filter((m): m is string => !!m),
  );
}

/** Whether the network's bridge exists on the host. */
export async function bridgeExists(host: LibvirtHost, names: NetworkNames): Promise<boolean> {
  const out = await host.sh(
    `ip link show dev ${safe(names.bridge)} >/dev/null 2>&1 && echo yes || echo no\n`,
  );
  return out.trim() === 'yes';
}
