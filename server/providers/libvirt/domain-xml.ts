import type { LibvirtImage } from './config';

/** libvirt's XML for the domains, volumes and interfaces the driver makes, and what it reads back. */

const escapeXml = (value: string) => value.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

export interface Size {
  cpu: number;
  ramGb: number;
  diskGb: number;
}

export interface InterfaceSpec {
  bridge: string;
  macAddress: string;
  /** The tap's name on the host, so that what the driver made can be found by name. */
  tap: string;
  /**
   * The anti-spoofing nwfilter (guest-filters.ts) and the address it binds the guest to: the
   * driver's interfaces always have one (the benchmark's bare domains go without).
   */
  filter?: { name: string; fixedIp: string | null };
}

function filterXml(filter: InterfaceSpec['filter']): string {
  if (!filter) return '';
  const ip = filter.fixedIp
    ? `\n        <parameter name='IP' value='${escapeXml(filter.fixedIp)}'/>\n      `
    : '';
  return `\n      <filterref filter='${escapeXml(filter.name)}'>${ip}</filterref>`;
}

export function interfaceXml(iface: InterfaceSpec): string {
  return `<interface type='bridge'>
      <source bridge='${escapeXml(iface.bridge)}'/>
      <mac address='${escapeXml(iface.macAddress)}'/>
      <target dev='${escapeXml(iface.tap)}'/>
      <model type='virtio'/>${filterXml(iface.filter)}
    </interface>`;
}

/**
 * Until its first boot is confirmed a guest is defined with `on_reboot` destroy: a kernel that
 * panics and resets (or any reset while booting) then stops the domain, which reports the failed
 * boot at once instead of after the boot time-out. The driver turns restarts on once it booted.
 */
export function domainXml(input: {
  name: string;
  /** The domain's UUID, when it is defined again (libvirt refuses a new one for the name). */
  uuid?: string;
  title: string;
  acceleration: 'kvm' | 'tcg';
  size: Size;
  image: LibvirtImage;
  pool: string;
  disk: string;
  seed: string;
  interfaces: InterfaceSpec[];
  serialLog: string;
}): string {
  const { image, size } = input;
  const boot = image.kernel
    ? `<kernel>${escapeXml(image.kernel)}</kernel>
    ${image.initrd ? `<initrd>${escapeXml(image.initrd)}</initrd>` : ''}
    ${image.cmdline ? `<cmdline>${escapeXml(image.cmdline)}</cmdline>` : ''}`
    : `<boot dev='hd'/>`;
  return `<domain type='${input.acceleration === 'kvm' ? 'kvm' : 'qemu'}'>
  <name>${escapeXml(input.name)}</name>
  ${input.uuid ? `<uuid>${escapeXml(input.uuid)}</uuid>` : ''}
  <title>${escapeXml(input.title)}</title>
  <memory unit='GiB'>${size.ramGb}</memory>
  <vcpu>${size.cpu}</vcpu>
  <os>
    <type arch='x86_64' machine='pc'>hvm</type>
    ${boot}
  </os>
  <features><acpi/><apic/></features>
  ${input.acceleration === 'kvm' ? "<cpu mode='host-passthrough'/>" : ''}
  <on_poweroff>destroy</on_poweroff>
  <on_reboot>destroy</on_reboot>
  <on_crash>destroy</on_crash>
  <devices>
    <disk type='volume' device='disk'>
      <driver name='qemu' type='qcow2'/>
      <source pool='${escapeXml(input.pool)}' volume='${escapeXml(input.disk)}'/>
      <target dev='vda' bus='virtio'/>
    </disk>
    <disk type='volume' device='disk'>
      <driver name='qemu' type='raw'/>
      <source pool='${escapeXml(input.pool)}' volume='${escapeXml(input.seed)}'/>
      <target dev='vdb' bus='virtio'/>
      <readonly/>
    </disk>
    ${input.interfaces.map(interfaceXml).join('\n    ')}
    <serial type='file'><source path='${escapeXml(input.serialLog)}' append='on'/><target port='0'/></serial>
    <console type='file'><source path='${escapeXml(input.serialLog)}' append='on'/><target type='serial' port='0'/></console>
    <graphics type='vnc'><listen type='socket'/></graphics>
    <video><model type='vga'/></video>
    <panic model='isa'/>
    <memballoon model='virtio'><stats period='5'/></memballoon>
  </devices>
</domain>`;
}

export function overlayVolumeXml(name: string, capacityGb: number, base: string): string {
  return `<volume>
  <name>${escapeXml(name)}</name>
  <capacity unit='GiB'>${capacityGb}</capacity>
  <target><format type='qcow2'/><permissions><mode>0600</mode></permissions></target>
  <backingStore><path>${escapeXml(base)}</path><format type='qcow2'/></backingStore>
</volume>`;
}

/** The MAC addresses and bridges of a domain's interfaces, from `virsh dumpxml`. */
export function domainInterfaces(xml: string): { macAddress: string; bridge: string | null }[] {
  const found: { macAddress: string; bridge: string | null }[] = [];
  for (const match of xml.matchAll(/<interface\b[\s\S]*?<\/interface>/g)) {
    const mac = /<mac address='([^']+)'/.exec(match[0])?.[1];
    if (mac)
      found.push({
        macAddress: mac,
        bridge: /<source bridge='([^']+)'/.exec(match[0])?.[1] ?? null,
      });
  }
  return found;
}

/** The unix socket of a running domain's VNC server, from its live XML. */
export const vncSocketOf = (xml: string): string | null =>
  /<graphics type='vnc'[^>]*\bsocket='([^']+)'/.exec(xml)?.[1] ?? null;
