import { hostRange, ipToNumber, numberToIp, parseCidr } from '../../../src/api/contract/ip';
import type { NetworkSpec } from '../driver';

/**
 * The addresses Neutron may pick by itself on a product network's subnet — for its DHCP server's
 * port, the only one it makes there. The product gives every server's port its address from the
 * network's DHCP range, so Neutron's picks lie outside that range and off the gateway. When the
 * range covers the whole block (the CIDR helper's values do), the DHCP server gets the range's
 * last address, the one the product hands out last.
 */
export function cloudAllocationPools(spec: NetworkSpec): { start: string; end: string }[] {
  const cidr = parseCidr(spec.cidr);
  if (!cidr || !spec.dhcp) return [];
  const { first, last } = hostRange(cidr);
  const start = ipToNumber(spec.dhcp.start)!;
  const end = ipToNumber(spec.dhcp.end)!;
  const gateway = spec.gatewayIp === null ? null : ipToNumber(spec.gatewayIp);
  const free: [number, number][] = [];
  const add = (from: number, to: number) => {
    if (from > to) return;
    if (gateway !== null && gateway >= from && gateway <= to) {
      add(from, gateway - 1);
      add(gateway + 1, to);
    } else free.push([from, to]);
  };
  add(first, start - 1);
  add(end + 1, last);
  if (free.length === 0) free.push([end, end]);
  return free.map(([from, to]) => ({ start: numberToIp(from), end: numberToIp(to) }));
}
