import { overlayVolumeXml } from './domain-xml';
import type { LibvirtHost } from './host';

const NO_VOLUME = /Storage volume not found|no storage vol/i;
const NO_POOL = /Storage pool not found|no storage pool/i;

/**
 * A server's disks, as volumes of a libvirt storage pool on its host (so that they are made,
 * uploaded, grown and removed through libvirt, on a remote host too): its qcow2 disk, an overlay
 * on the image's base, and its cloud-init seed.
 */
export class DiskPool {
  private readonly ready = new Set<string>();

  constructor(
    readonly name: string,
    private readonly stateDir: string,
  ) {}

  disk = (domain: string) => `${domain}-disk.qcow2`;
  seed = (domain: string) => `${domain}-seed.iso`;

  /** The pool exists and runs on the host (made the first time). */
  async ensure(host: LibvirtHost) {
    if (this.ready.has(host.key)) return;
    const info = await host.virshMaybe(['pool-info', this.name], NO_POOL);
    // Another build (of this process or another) may make it at the same moment: its doing so is
    // as good as ours.
    const alreadyDone = /already exists|already active|is already in use/i;
    if (info === null) {
      await host.sh(`mkdir -p '${this.stateDir}/disks' '${this.stateDir}/logs'\n`);
      await host.virshMaybe(
        ['pool-define-as', this.name, 'dir', '--target', `${this.stateDir}/disks`],
        alreadyDone,
      );
      await host.virsh(['pool-autostart', this.name]);
    }
    if (info === null || !/State:\s+running/.test(info)) {
      await host.virshMaybe(['pool-start', this.name], alreadyDone);
    }
    this.ready.add(host.key);
  }

  private exists(host: LibvirtHost, volume: string) {
    return host
      .virshMaybe(['vol-info', '--pool', this.name, volume], NO_VOLUME)
      .then((info) => info !== null);
  }

  /** The server's disk of `sizeGb` over `base`, unless it is there already. */
  async createDisk(host: LibvirtHost, domain: string, sizeGb: number, base: string) {
    if (await this.exists(host, this.disk(domain))) return;
    await host.virsh(['vol-create', this.name, 'FILE'], {
      file: overlayVolumeXml(this.disk(domain), sizeGb, base),
    });
  }

  /** The seed volume with `iso` in it, unless it is there already. */
  async createSeed(host: LibvirtHost, domain: string, iso: () => Promise<Buffer>) {
    if (await this.exists(host, this.seed(domain))) return;
    const data = await iso();
    const volume = this.seed(domain);
    await host.virsh(['vol-create-as', this.name, volume, `${data.length}b`, '--format', 'raw']);
    await host.virsh(['vol-upload', '--pool', this.name, volume, 'FILE'], { file: data });
  }

  /** Grows the disk to `sizeGb`; a disk never shrinks (that would cut the guest's file systems). */
  async growDisk(host: LibvirtHost, domain: string, sizeGb: number) {
    const info = await host.virsh(['vol-info', '--pool', this.name, this.disk(domain), '--bytes']);
    const capacity = Number(/Capacity:\s+(\d+)/.exec(info)?.[1] ?? 0);
    if (capacity < sizeGb * 1024 ** 3) {
      await host.virsh(['vol-resize', '--pool', this.name, this.disk(domain), `${sizeGb}G`]);
    }
  }

  async remove(host: LibvirtHost, domain: string) {
    for (const volume of [this.disk(domain), this.seed(domain)]) {
      await host.virshMaybe(['vol-delete', '--pool', this.name, volume], NO_VOLUME);
    }
  }
}
