import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { systemClock } from '../../server/clock';
import { connectPglite } from '../../server/db/client';
import * as schema from '../../server/schema';
import { domainXml, overlayVolumeXml } from '../../server/providers/libvirt/domain-xml';
import { LibvirtDriver } from '../../server/providers/libvirt/driver';
import { LibvirtHost } from '../../server/providers/libvirt/host';
import { networkNames } from '../../server/providers/libvirt/host-network';
import { lvNetworks } from '../../server/providers/libvirt/schema';
import { seedIso } from '../../server/providers/libvirt/seed';
import { defaultImageDir, labProviderConfig, readBuiltImage } from '../libvirt/lab-config';
import { requireTools, startLabHost, stopLabHost } from '../libvirt/lab-host';
import { median } from './stats';

/**
 * The libvirt driver with real TCG guests on a lab host (Micro: 2 vCPUs, 4 GiB): create to
 * Running for one guest and five at once, the console's connect time, and each phase of a guest's
 * life through the driver against the same phases done by hand with plain virsh.
 */

const say = (text: string) => console.warn(text);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function main() {
  const missing = requireTools();
  if (missing.length > 0) return say(`libvirt bench skipped: ${missing.join(', ')} missing`);
  if (!existsSync(path.join(process.env.LIBVIRT_IMAGE_DIR ?? defaultImageDir, 'image.json'))) {
    return say('libvirt bench skipped: no test image (npm run libvirt:image)');
  }
  const baseDir = mkdtempSync(path.join(tmpdir(), 'lpbench-'));
  chmodSync(baseDir, 0o755);
  const lab = await startLabHost({ baseDir });
  const database = connectPglite(schema);
  let token = 0;
  const next = () => `bench-${(token += 1)}`;
  try {
    await database.migrate();
    const image = readBuiltImage();
    const config = labProviderConfig(lab, image);
    const driver = new LibvirtDriver({
      db: database.db,
      clock: systemClock,
      config,
      consoleUrl: (ref) => ref,
    });
    const host = new LibvirtHost({ key: 'box', uri: lab.uri, run: lab.run });
    const { ref: networkRef } = await driver.networking.createNetwork(
      'lab-1',
      {
        name: 'bench',
        cidr: '10.90.0.0/24',
        gatewayIp: '10.90.0.1',
        dhcp: { start: '10.90.0.10', end: '10.90.0.250' },
        dnsServers: ['203.0.113.1'],
        defaultRoute: '10.90.0.1',
        snatIp: '203.0.113.129',
      },
      next(),
    );
    const [network] = await database.db
      .select()
      .from(lvNetworks)
      .where(eq(lvNetworks.ref, networkRef));
    const names = networkNames(config.namePrefix, config.stateDir, network!.id);

    let address = 10;
    const order = (name: string) => {
      address += 1;
      const hex = address.toString(16).padStart(2, '0');
      return {
        clientToken: next(),
        providerKey: 'lab',
        regionKey: 'lab-1',
        imageKey: 'busybox',
        sizeKey: 'micro',
        name,
        username: 'launchpad',
        password: 'Bench-Passw0rd-42!',
        authorizedKeys: ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBench bench'],
        primaryPort: {
          networkRef,
          fixedIp: `10.90.0.${address}`,
          macAddress: `52:54:00:90:00:${hex}`,
        },
        publicIp: null,
      };
    };
    const until = async (check: () => Promise<boolean>) => {
      for (let i = 0; i < 3000; i += 1) {
        if (await check()) return;
        await sleep(100);
      }
      throw new Error('timed out');
    };
    const atRest = (ref: string, power: string) => async () => {
      const state = await driver.getServer(ref);
      return state?.powerState === power && state.task === null;
    };
    const log = (domain: string) => `${config.stateDir}/logs/${domain}.serial.log`;
    const readyCount = async (domain: string) =>
      Number(
        (
          await host.sh(`grep -ac 'LAUNCHPAD-READY' '${log(domain)}' 2>/dev/null || true\n`)
        ).trim() || 0,
      );
    const domainOf = async (ref: string) => `${config.namePrefix}-${ref}`;

    /** Create to Running through the driver; answers the time and the ref. */
    const createOne = async (name: string) => {
      const started = Date.now();
      const { ref } = await driver.createServer(order(name));
      await until(atRest(ref, 'running'));
      return { ms: Date.now() - started, ref };
    };

    // Warm-up: the first guest pays for libvirt's QEMU probe and the page cache.
    const warm = await createOne('warm-up');
    await driver.deleteServer(warm.ref, next());

    const single: number[] = [];
    for (let run = 0; run < 3; run += 1) {
      const { ms, ref } = await createOne(`one-${run}`);
      single.push(ms);
      await driver.deleteServer(ref, next());
    }

    const fiveEach: number[] = [];
    const fiveAll: number[] = [];
    for (let round = 0; round < 2; round += 1) {
      const started = Date.now();
      const made = await Promise.all(
        Array.from({ length: 5 }, (_, i) => createOne(`five-${round}-${i}`)),
      );
      fiveAll.push(Date.now() - started);
      fiveEach.push(median(made.map((m) => m.ms)));
      for (const { ref } of made) await driver.deleteServer(ref, next());
    }

    // The console: from openConsole to the first bytes of the guest's RFB greeting.
    const viewed = await createOne('console');
    const connects: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const started = Date.now();
      const stream = await driver.openConsole(viewed.ref);
      await new Promise((resolve) => stream.once('data', resolve));
      connects.push(Date.now() - started);
      stream.destroy();
    }
    await driver.deleteServer(viewed.ref, next());

    // The same life, through the driver and by hand with virsh; each boot ends at the guest's
    // LAUNCHPAD-READY report, so both measure the same thing.
    const phases = ['create + boot', 'ACPI stop', 'start + boot', 'delete'] as const;
    const viaDriver: number[][] = phases.map(() => []);
    const viaVirsh: number[][] = phases.map(() => []);
    const timed = async (into: number[], fn: () => Promise<unknown>) => {
      const started = Date.now();
      await fn();
      into.push(Date.now() - started);
    };
    for (let run = 0; run < 3; run += 1) {
      const request = order(`driver-${run}`);
      let ref = '';
      await timed(viaDriver[0]!, async () => {
        ref = (await driver.createServer(request)).ref;
        await until(atRest(ref, 'running'));
        const domain = await domainOf(ref);
        await until(async () => (await readyCount(domain)) >= 1);
      });
      const domain = await domainOf(ref);
      await timed(viaDriver[1]!, async () => {
        await driver.stopServer(ref, next());
        await until(atRest(ref, 'shutoff'));
      });
      await timed(viaDriver[2]!, async () => {
        await driver.startServer(ref, next());
        await until(atRest(ref, 'running'));
        await until(async () => (await readyCount(domain)) >= 2);
      });
      await timed(viaDriver[3]!, () => driver.deleteServer(ref, next()));

      const plain = order(`virsh-${run}`);
      const name = `plain-${run}`;
      const pool = `${config.namePrefix}-disks`;
      const state = async () => (await host.virsh(['domstate', name])).trim();
      await timed(viaVirsh[0]!, async () => {
        await host.virsh(['vol-create', pool, 'FILE'], {
          file: overlayVolumeXml(`${name}-disk.qcow2`, 80, image.base),
        });
        const iso = await seedIso({
          instanceId: name,
          hostname: name,
          username: plain.username,
          password: plain.password,
          authorizedKeys: plain.authorizedKeys,
        });
        await host.virsh([
          'vol-create-as',
          pool,
          `${name}-seed.iso`,
          `${iso.length}b`,
          '--format',
          'raw',
        ]);
        await host.virsh(['vol-upload', '--pool', pool, `${name}-seed.iso`, 'FILE'], { file: iso });
        await host.sh(
          `echo '${plain.primaryPort.macAddress},${plain.primaryPort.fixedIp}' >> ${names.dir}/hosts\nkill -HUP "$(cat ${names.dir}/dnsmasq.pid)"\n`,
        );
        await host.virsh(['define', 'FILE'], {
          file: domainXml({
            name,
            title: name,
            acceleration: 'tcg',
            size: { cpu: 2, ramGb: 4, diskGb: 80 },
            image: { key: 'busybox', name: 'busybox', ...image },
            pool,
            disk: `${name}-disk.qcow2`,
            seed: `${name}-seed.iso`,
            interfaces: [
              { bridge: names.bridge, macAddress: plain.primaryPort.macAddress, tap: `lpv${run}` },
            ],
            serialLog: log(name),
          }),
        });
        await host.virsh(['start', name]);
        await until(async () => (await readyCount(name)) >= 1);
      });
      await timed(viaVirsh[1]!, async () => {
        await host.virsh(['shutdown', name, '--mode', 'acpi']);
        await until(async () => (await state()) === 'shut off');
      });
      await timed(viaVirsh[2]!, async () => {
        await host.virsh(['start', name]);
        await until(async () => (await readyCount(name)) >= 2);
      });
      await timed(viaVirsh[3]!, async () => {
        await host.virsh(['destroy', name]);
        await host.virsh(['undefine', name]);
        await host.virsh(['vol-delete', '--pool', pool, `${name}-disk.qcow2`]);
        await host.virsh(['vol-delete', '--pool', pool, `${name}-seed.iso`]);
        await host.sh(
          `rm -f '${log(name)}'\nsed -i '/${plain.primaryPort.macAddress}/d' ${names.dir}/hosts\nkill -HUP "$(cat ${names.dir}/dnsmasq.pid)"\n`,
        );
      });
    }

    say(
      `libvirt driver, real guests (Micro: 2 vCPUs, 4 GiB; ${config.acceleration}; ${cpus().length} cores)`,
    );
    say(`create -> Running, 1 guest             ${seconds(median(single))} (median of 3)`);
    say(`create -> Running, 5 at once, each     ${seconds(median(fiveEach))} (median of 2 rounds)`);
    say(`create -> Running, 5 at once, all      ${seconds(median(fiveAll))} (median of 2 rounds)`);
    say(`console connect (RFB greeting)         ${median(connects).toFixed(0)} ms (median of 5)`);
    say('phase            driver      virsh    ratio (median of 3)');
    let totalDriver = 0;
    let totalVirsh = 0;
    phases.forEach((phase, i) => {
      const d = median(viaDriver[i]!);
      const v = median(viaVirsh[i]!);
      totalDriver += d;
      totalVirsh += v;
      say(
        `${phase.padEnd(15)} ${seconds(d).padStart(8)} ${seconds(v).padStart(9)}   ${(d / v).toFixed(2)}`,
      );
    });
    say(
      `${'whole life'.padEnd(15)} ${seconds(totalDriver).padStart(8)} ${seconds(totalVirsh).padStart(9)}   ${(totalDriver / totalVirsh).toFixed(2)}`,
    );
  } finally {
    stopLabHost(lab);
    await database.close();
    rmSync(baseDir, { recursive: true, force: true });
  }
}

await main();
