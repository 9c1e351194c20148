import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LookupItem, VmDetails } from '../../src/api/contract/vms';
import { labProviderConfig, readBuiltImage } from '../../scripts/libvirt/lab-config';
import { outside, startLabHost, stopLabHost, type LabHost } from '../../scripts/libvirt/lab-host';
import { apiSession, eventually, type ApiCall } from '../e2e/support/api-session';
import { startServer, type RunningServer } from '../e2e/support/server-process';
import { inBox, markers, until } from './support/lab';

const ADMIN = { email: 'libvirt-admin@example.com', password: 'Libvirt!Journey-Passw0rd' };

interface Adapter {
  id: number;
  vmnic: number;
  networkId: number;
  privateIp: string | null;
  publicIp: string | null;
  status: string;
}

/**
 * The product on a libvirt region: the API's whole VM and network life with real guests, a server
 * killed while a guest is being built, and libvirtd stopped under an operation.
 */
describe('the product on a libvirt region', () => {
  let lab: LabHost;
  let dataDir: string;
  let env: Record<string, string>;
  let server: RunningServer;
  let call: ApiCall;

  const domains = () => inBox(lab, 'virsh -q list --all --name').trim().split('\n').filter(Boolean);
  const serial = (domain: string) =>
    inBox(lab, `cat ${lab.stateDir}/logs/${domain}.serial.log 2>/dev/null || true`);
  const statusOf = async (id: number) =>
    (await call<VmDetails>('GET', `/virtualMachines/details/${id}`)).status;

  async function order(name: string, sizeKey: number) {
    const countries = await call<LookupItem[]>('GET', '/virtualMachines/listCountries');
    const iceland = countries.find((c) => c.name === 'Iceland')!;
    const [region] = await call<LookupItem[]>('GET', `/virtualMachines/listRegions/${iceland.id}`);
    const [image] = await call<LookupItem[]>('GET', `/virtualMachines/listImages/${region!.id}`);
    const [provider] = await call<LookupItem[]>(
      'GET',
      `/virtualMachines/listProviders/${region!.id}?imageId=${image!.id}&configurationId=${sizeKey}`,
    );
    const { ids } = await call<{ ids: number[] }>('POST', '/virtualMachines/create', {
      regionId: region!.id,
      imageId: image!.id,
      configurationId: sizeKey,
      providerId: provider!.id,
      name,
      numberOfInstances: 1,
      teamId: null,
      allocatePublicIp: true,
    });
    return { id: ids[0]!, regionId: region!.id };
  }

  beforeAll(async () => {
    const baseDir = mkdtempSync(path.join(tmpdir(), 'lpprod-'));
    chmodSync(baseDir, 0o755);
    lab = await startLabHost({ baseDir });
    const configFile = path.join(baseDir, 'provider.json');
    writeFileSync(configFile, JSON.stringify(labProviderConfig(lab, readBuiltImage())));
    dataDir = mkdtempSync(path.join(tmpdir(), 'lpprod-data-'));
    env = {
      BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
      APP_SECRET: 'libvirt-journey-secret-libvirt-journey',
      LIBVIRT_CONFIG: configFile,
    };
    server = await startServer(env, { dataDir });
    call = await apiSession(server, ADMIN);
  });

  afterAll(async () => {
    await server?.stop();
    if (lab) stopLabHost(lab);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates a real guest that answers on its public IP, then upgrades, adds an interface and deletes it', async () => {
    const { id } = await order('web', 1);
    await eventually(async () => (await statusOf(id)) === 'Running', 180, 'Running');
    const [domain] = domains();
    expect(domains()).toHaveLength(1);

    const [primary] = await call<Adapter[]>('GET', `/networks/listNetAdapters/${id}`);
    expect(primary).toMatchObject({ vmnic: 1, status: 'Active' });
    expect(primary!.publicIp).toMatch(/^203\.0\.113\./);
    const log = await until('the guest ready', async () => {
      const text = serial(domain!);
      return markers(text, 'READY').length > 0 ? text : undefined;
    });
    expect(markers(log, 'NET')[0]).toContain(`ip=${primary!.privateIp}/22`);
    expect(outside(lab, ['curl', '-sS', '-m', '5', `http://${primary!.publicIp}/`])).toContain(
      'hello from web',
    );
    const { consoleUrl } = await call<{ consoleUrl: string }>(
      'GET',
      `/virtualMachines/getConsole/${id}`,
    );
    // The gateway's page, behind a ticket for this VM.
    expect(consoleUrl.startsWith(`/console/${id}.`)).toBe(true);

    // Upgrade while running: the guest comes back with four vCPUs.
    await call('PUT', '/virtualMachines/changeConfiguration', { id, configurationId: 2 });
    await eventually(
      async () => markers(serial(domain!), 'HW').some((l) => l.includes('cpus=4')),
      240,
      'the guest on its new size',
    );
    await eventually(async () => (await statusOf(id)) === 'Running', 120, 'Running again');

    // A second interface goes on while the VM is stopped.
    await call('POST', `/virtualMachines/stop/${id}`);
    await eventually(async () => (await statusOf(id)) === 'Stopped', 120, 'Stopped');
    const { regionId } = await call<VmDetails>('GET', `/virtualMachines/details/${id}`).then(
      (d) => ({ regionId: d.virtualMachine.regionId }),
    );
    const { id: networkId } = await call<{ id: number }>('POST', '/networks/create', {
      name: 'backend',
      regionId,
      cidrBlock: '172.20.0.0/24',
      networkType: 'standard',
      dhcpStartAddress: '172.20.0.10',
      dhcpEndAddress: '172.20.0.200',
      defaultRoute: '172.20.0.1',
      dnsServers: '203.0.113.1',
    });
    await eventually(
      async () =>
        (await call<{ id: number }[]>('GET', `/virtualMachines/${id}/availableNetworks`)).some(
          (n) => n.id === networkId,
        ),
      60,
      'the network offered',
    );
    await call('POST', `/virtualMachines/${id}/addNetworkInterfaces`, { networkId });
    await eventually(
      async () =>
        (await call<Adapter[]>('GET', `/networks/listNetAdapters/${id}`)).every(
          (a) => a.status === 'Active',
        ),
      120,
      'the interface attached',
    );
    await call('POST', `/virtualMachines/start/${id}`);
    await eventually(async () => (await statusOf(id)) === 'Running', 120, 'Running');
    await eventually(
      async () =>
        markers(serial(domain!), 'NET').some((l) => /eth1 .*ip=172\.20\.0\.\d+\/24/.test(l)),
      120,
      'eth1 addressed in the guest',
    );

    await call('DELETE', `/virtualMachines/delete/${id}`);
    await eventually(async () => domains().length === 0, 120, 'the domain gone');
    await eventually(
      async () =>
        inBox(
          lab,
          `ls ${lab.stateDir}/disks ${lab.stateDir}/logs 2>/dev/null | grep -c lp- || true`,
        ).trim() === '0',
      60,
      'the disks and logs gone',
    );
  });

  it('finishes a guest a killed server was building, once, and survives libvirtd going away', async () => {
    const { id } = await order('survivor', 1);
    await eventually(async () => domains().length === 1, 60, 'the domain defined');
    await server.kill();
    server = await startServer(env, { dataDir });
    call = await apiSession(server, ADMIN);
    await eventually(async () => (await statusOf(id)) === 'Running', 180, 'Running');
    expect(domains()).toHaveLength(1);

    // libvirtd stops under a stop operation and comes back: the operation retries and finishes.
    inBox(lab, 'kill "$(cat /run/libvirt/libvirtd.pid)"');
    await call('POST', `/virtualMachines/stop/${id}`);
    await new Promise((resolve) => setTimeout(resolve, 4000));
    expect(await statusOf(id)).toBe('Stopping');
    inBox(lab, 'libvirtd -d -p /run/libvirt/libvirtd.pid');
    await eventually(async () => (await statusOf(id)) === 'Stopped', 180, 'Stopped');

    await call('DELETE', `/virtualMachines/delete/${id}`);
    await eventually(async () => domains().length === 0, 120, 'the domain gone');
  });
});
