import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { LookupItem, VmDetails } from '../../src/api/contract/vms';
import { labProviderConfig, readBuiltImage } from '../../scripts/libvirt/lab-config';
import { startLabHost, stopLabHost, type LabHost } from '../../scripts/libvirt/lab-host';
import { apiSession, eventually } from '../e2e/support/api-session';
import { checkGatewayConsoleRules } from '../e2e/support/gateway-console';
import { startServer, type RunningServer } from '../e2e/support/server-process';
import { inBox } from './support/lab';

const ADMIN = { email: 'console-admin@example.com', password: 'Console!Gateway-Passw0rd' };

/**
 * The console gateway with a real guest on a libvirt region: a console link is refused from
 * another origin, opens the guest's VNC stream once, and signing out closes the open console.
 */
describe("a real guest's console on a libvirt region", () => {
  let lab: LabHost;
  let baseDir: string;
  let server: RunningServer;

  const domains = () => inBox(lab, 'virsh -q list --all --name').trim().split('\n').filter(Boolean);

  beforeAll(async () => {
    baseDir = mkdtempSync(path.join(tmpdir(), 'lpconsole-'));
    chmodSync(baseDir, 0o755);
    lab = await startLabHost({ baseDir });
    const configFile = path.join(baseDir, 'provider.json');
    writeFileSync(configFile, JSON.stringify(labProviderConfig(lab, readBuiltImage())));
    server = await startServer({
      BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
      LIBVIRT_CONFIG: configFile,
    });
  });

  afterAll(async () => {
    await server?.stop();
    if (lab) stopLabHost(lab);
    if (baseDir) rmSync(baseDir, { recursive: true, force: true });
  });

  it('is bound to its session: one use, the console origin only, closed on sign-out', async () => {
    let call = await apiSession(server, ADMIN);
    const countries = await call<LookupItem[]>('GET', '/virtualMachines/listCountries');
    const iceland = countries.find((c) => c.name === 'Iceland')!;
    const [region] = await call<LookupItem[]>('GET', `/virtualMachines/listRegions/${iceland.id}`);
    const [image] = await call<LookupItem[]>('GET', `/virtualMachines/listImages/${region!.id}`);
    const [provider] = await call<LookupItem[]>(
      'GET',
      `/virtualMachines/listProviders/${region!.id}?imageId=${image!.id}&configurationId=1`,
    );
    const {
      ids: [id],
    } = await call<{ ids: number[] }>('POST', '/virtualMachines/create', {
      regionId: region!.id,
      imageId: image!.id,
      configurationId: 1,
      providerId: provider!.id,
      name: 'screen',
      numberOfInstances: 1,
      teamId: null,
      allocatePublicIp: false,
    });
    const status = async () =>
      (await call<VmDetails>('GET', `/virtualMachines/details/${id}`)).status;
    await eventually(async () => (await status()) === 'Running', 180, 'Running');

    await checkGatewayConsoleRules(server, ADMIN, id!);

    // Signed out: a new session deletes the guest, and nothing of it is left.
    call = await apiSession(server, ADMIN);
    await call('DELETE', `/virtualMachines/delete/${id}`);
    await eventually(async () => domains().length === 0, 120, 'the domain gone');
  });
});
