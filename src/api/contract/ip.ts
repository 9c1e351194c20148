/**
 * IPv4 arithmetic shared by the console (live form checks) and the server (address management).
 * Addresses are handled as unsigned 32-bit numbers.
 */

const OCTET = /^(0|[1-9]\d{0,2})$/;

/** A dotted address as a number, or null: four numbers of 0 to 255 (no leading zeros). */
export function ipToNumber(value: string): number | null {
  const parts = value.trim().split('.');
  if (parts.length !== 4) return null;
  let result = 0;
  for (const part of parts) {
    if (!OCTET.test(part)) return null;
    const octet = Number(part);
    if (octet > 255) return null;
    result = result * 256 + octet;
  }
  return result;
}

export const numberToIp = (value: number): string =>
  [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');

export const isIpAddress = (value: string) => ipToNumber(value) !== null;

export interface Cidr {
  /** The network address as a number. */
  network: number;
  prefix: number;
  /** How many addresses the block holds. */
  size: number;
  /** The normalised text, `a.b.c.d/p`, with the host bits cleared. */
  text: string;
  /** The input had host bits set (`10.0.0.5/24`). */
  hostBitsSet: boolean;
  /** Inside the block and neither its network nor its broadcast address. */
  isHost(address: string): boolean;
  toNumber(address: string): number;
  /** `address` lies between `start` and `end`, both included. */
  inRange(address: string, start: string, end: string): boolean;
}

/**
 * Parses `a.b.c.d/p` (spaces ignored) with a prefix of 0 to 32; null when it is not one.
 * The block is normalised to its network address.
 */
export function parseCidr(input: string): Cidr | null {
  const match = /^([\d.]+)\/(\d{1,2})$/.exec(input.replace(/\s+/g, ''));
  if (!match) return null;
  const address = ipToNumber(match[1]!);
  const prefix = Number(match[2]);
  if (address === null || prefix > 32) return null;
  const size = 2 ** (32 - prefix);
  const network = Math.floor(address / size) * size;
  const last = network + size - 1;
  const toNumber = (value: string) => ipToNumber(value) ?? -1;
  // A /31 or /32 has no network and broadcast addresses to keep apart.
  const hostFirst = prefix >= 31 ? network : network + 1;
  const hostLast = prefix >= 31 ? last : last - 1;
  return {
    network,
    prefix,
    size,
    text: `${numberToIp(network)}/${prefix}`,
    hostBitsSet: address !== network,
    isHost(value) {
      const n = toNumber(value);
      return n >= hostFirst && n <= hostLast;
    },
    toNumber,
    inRange(value, start, end) {
      const n = toNumber(value);
      return n >= toNumber(start) && n <= toNumber(end);
    },
  };
}

/** The first and last host address of a block (a /31 or /32 has no network or broadcast address). */
export function hostRange(cidr: Cidr): { first: number; last: number } {
  const end = cidr.network + cidr.size - 1;
  return cidr.prefix >= 31
    ? { first: cidr.network, last: end }
    : { first: cidr.network + 1, last: end - 1 };
}

/** The gateway (first host) and the DHCP range (every other host) of a block. */
export function defaultAddressing(cidr: Cidr): {
  gatewayIp: string;
  dhcpStartAddress: string;
  dhcpEndAddress: string;
} {
  if (cidr.prefix >= 31) {
    const only = numberToIp(cidr.network);
    return {
      gatewayIp: only,
      dhcpStartAddress: only,
      dhcpEndAddress: numberToIp(cidr.network + cidr.size - 1),
    };
  }
  return {
    gatewayIp: numberToIp(cidr.network + 1),
    dhcpStartAddress: numberToIp(cidr.network + 2),
    dhcpEndAddress: numberToIp(cidr.network + cidr.size - 2),
  };
}

export const overlaps = (a: Cidr, b: Cidr) =>
  a.network < b.network + b.size && b.network < a.network + a.size;

const special: [string, string][] = [
  ['0.0.0.0/8', 'is reserved for "this network"'],
  ['127.0.0.0/8', 'is the loopback range'],
  ['169.254.0.0/16', 'is the link-local range'],
  ['100.64.0.0/10', 'is the shared address space of carrier-grade NAT'],
  ['192.0.0.0/24', 'is reserved for protocol assignments'],
  ['192.0.2.0/24', 'is reserved for documentation'],
  ['198.51.100.0/24', 'is reserved for documentation'],
  ['203.0.113.0/24', 'is reserved for documentation'],
  ['198.18.0.0/15', 'is reserved for network benchmarks'],
  ['224.0.0.0/4', 'is the multicast range'],
  ['240.0.0.0/4', 'is reserved for future use'],
];
const privateRanges = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'].map((r) => parseCidr(r)!);

/** Inside RFC 1918's private ranges or RFC 6598's shared space: what a network may use. */
export function isPrivateBlock(cidr: Cidr): boolean {
  return [...privateRanges, parseCidr('100.64.0.0/10')!].some(
    (p) => cidr.network >= p.network && cidr.network + cidr.size <= p.network + p.size,
  );
}

/** Why the block is a poor choice for a private network, or null when it is a fine one. */
export function reservedRangeWarning(cidr: Cidr): string | null {
  for (const [range, why] of special) {
    if (overlaps(cidr, parseCidr(range)!)) return `${cidr.text} overlaps ${range}, which ${why}`;
  }
  const inside = privateRanges.some(
    (p) => cidr.network >= p.network && cidr.network + cidr.size <= p.network + p.size,
  );
  return inside
    ? null
    : `${cidr.text} is not inside a private range (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16)`;
}

/**
 * What the CIDR input keeps of what is typed (spec section 5): digits, dots, a slash and spaces,
 * with each octet above 255 brought down to 255.
 */
export function clampCidrInput(value: string): string {
  const kept = value.replace(/[^\d./ ]/g, '');
  const [address = '', ...rest] = kept.split('/');
  const clamped = address
    .split('.')
    .map((octet) => (octet.trim() !== '' && Number(octet) > 255 ? '255' : octet))
    .join('.');
  return rest.length > 0 ? `${clamped}/${rest.join('')}` : clamped;
}
