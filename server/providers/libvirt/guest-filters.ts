import { createHash } from 'node:crypto';
import type { LibvirtHost } from './host';

/**
 * Anti-spoofing on every guest interface, as libvirt network filters (nwfilter) bound to the
 * interface: libvirt instantiates them on the tap when the guest starts and removes them with it.
 * On libvirt 9 (Debian 12) nwfilter writes ebtables rules (Debian's `ebtables` is iptables'
 * nftables-backed one).
 * - `<prefix>-guest`, for an interface whose address the product assigns (a standard network):
 *   libvirt's own `clean-traffic` bound to its MAC and address (no other source MAC, no ARP or IP
 *   packet for another address, nothing but IPv4 and ARP), and no DHCP answers.
 * - `<prefix>-guest-l2`, on a custom (layer 2 only) network, whose addresses are the company's own
 *   choice: bound to its MAC only (frames and ARP), any address, and no DHCP answers either.
 * A guest may ask for an address by DHCP (source 0.0.0.0, as `clean-traffic` allows), never offer
 * one: a DHCP server's replies leave from UDP port 67 (547 for DHCPv6).
 */

export interface GuestFilter {
  name: string;
  xml: string;
}

/** A fixed UUID per filter name: libvirt refuses a filter redefined under another UUID. */
function uuidOf(name: string): string {
  const h = createHash('sha256').update(`launchpad-nwfilter:${name}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

const NO_DHCP_ANSWERS = `<rule action='drop' direction='out' priority='-1000'>
    <ip protocol='udp' srcportstart='67' srcportend='67'/>
  </rule>`;

const NO_DHCPV6_ANSWERS = `<rule action='drop' direction='out' priority='-1000'>
    <ipv6 protocol='udp' srcportstart='547' srcportend='547'/>
  </rule>`;

export function guestFilters(prefix: string): { bound: GuestFilter; layer2: GuestFilter } {
  const bound = `${prefix}-guest`;
  const layer2 = `${prefix}-guest-l2`;
  return {
    bound: {
      name: bound,
      xml: `<filter name='${bound}' chain='root'>
  <uuid>${uuidOf(bound)}</uuid>
  ${NO_DHCP_ANSWERS}
  <filterref filter='clean-traffic'/>
</filter>
`,
    },
    layer2: {
      name: layer2,
      xml: `<filter name='${layer2}' chain='root'>
  <uuid>${uuidOf(layer2)}</uuid>
  ${NO_DHCP_ANSWERS}
  ${NO_DHCPV6_ANSWERS}
  <filterref filter='no-mac-spoofing'/>
  <filterref filter='no-arp-mac-spoofing'/>
</filter>
`,
    },
  };
}

/** The filter an interface gets: bound to its address when the product assigned one. */
export const filterFor = (prefix: string, fixedIp: string | null) => {
  const filters = guestFilters(prefix);
  return fixedIp ? filters.bound.name : filters.layer2.name;
};

/**
 * Defines the filters on a host, once per host and process (a definition survives libvirtd's
 * restarts; defining again the same filter is harmless).
 */
export class GuestFilterDefinitions {
  private readonly defined = new Set<string>();

  constructor(private readonly prefix: string) {}

  async ensure(host: LibvirtHost) {
    if (this.defined.has(host.key)) return;
    const { bound, layer2 } = guestFilters(this.prefix);
    for (const filter of [bound, layer2]) {
      await host.virsh(['nwfilter-define', 'FILE'], { file: filter.xml });
    }
    this.defined.add(host.key);
  }
}
