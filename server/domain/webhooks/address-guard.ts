import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/** A delivery refused before any connection: the receiver's address or scheme is not allowed. */
export class RefusedDestination extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedDestination';
  }
}

export interface Destination {
  /** The address to connect to, and only that one. */
  address: string;
  family: 4 | 6;
}

/**
 * Only public unicast addresses are allowed: ipaddr.js names every special range (loopback,
 * private, link-local, CGNAT, unique local, multicast, 0.0.0.0/8, reserved, ...) and an allow-list
 * of `unicast` keeps out those it may learn of later. An IPv4-mapped IPv6 address is judged as
 * the IPv4 address it carries.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed.range() === 'unicast';
}

/**
 * Resolves the URL's host once and picks the address to connect to, refusing plain HTTP and
 * non-public addresses unless `allowPrivate`. The caller connects to exactly this address, so a
 * name that resolves differently a moment later (DNS rebinding) changes nothing.
 */
export async function resolveDestination(url: URL, allowPrivate: boolean): Promise<Destination> {
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    throw new RefusedDestination('Refused: the URL must use HTTPS');
  }
  // WHATWG URLs keep IPv6 literals in brackets.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const found = ipaddr.isValid(host)
    ? [{ address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 }]
    : await lookup(host, { all: true, verbatim: true }).catch(() => {
        throw new RefusedDestination(`The host ${host} could not be resolved`);
      });
  if (found.length === 0) throw new RefusedDestination(`The host ${host} could not be resolved`);
  // Every address must pass: the name's owner must not mix private ones in.
  const refused = allowPrivate ? undefined : found.find((a) => !isPublicAddress(a.address));
  if (refused) {
    throw new RefusedDestination(`Refused: ${refused.address} is not a public address`);
  }
  const first = found[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
