import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { LookupItem, VmDetails } from '../../src/api/contract/vms';
import { apiSession, eventually } from '../e2e/api-session';
import { checkGatewayConsoleRules } from '../e2e/gateway-console';
import { startServer, type RunningServer } from '../e2e/server-process';
import { labProvider, openstack, removeProductResources } from './cloud';

const ADMIN = { email: 'os-console@example.com', password: 'Os!Console-Rules-Passw0rd' };

/**
 * The console gateway with a real guest on an OpenStack region (the stream through Nova's noVNC
 * proxy): a console link is refused from another origin, opens the guest's console once, and
 * signing out closes the open console.
 */
describe("a real guest's console on an OpenStack region", () => {
  let server: RunningServer;
  let baseDir: string;

  beforeAll(async () => {
    removeProductResources('launchpad');
    baseDir = mkdtempSync(path.join(tmpdir(), 'lpos-console-'));
    const configFile = path.join(baseDir, 'openstack.json');
    writeFileSync(
      configFile,
      JSON.stringify({
        providers: [
          labProvider({
            key: 'lab-openstack',
            name: 'Lab OpenStack',
            project: 'launchpad',
            flavors: { micro: 'lp.micro' },
          }),
        ],
      }),
    );
    server = await startServer({
      BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
      OPENSTACK_CONFIG: configFile,
    });
  });
  afterAll(async () => {
    await server?.stop();
    if (baseDir) rmSync(baseDir, { recursive: true, force: true });
    removeProductResources('launchpad');
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
      name: 'osscreen',
      numberOfInstances: 1,
      teamId: null,
      allocatePublicIp: false,
    });
    const status = async () =>
      (await call<VmDetails>('GET', `/virtualMachines/details/${id}`)).status;
    await eventually(async () => (await status()) === 'Running', 420, 'Running');

    await checkGatewayConsoleRules(server, ADMIN, id!);

    // Signed out: a new session deletes the server, and the cloud has it no more.
    call = await apiSession(server, ADMIN);
    await call('DELETE', `/virtualMachines/delete/${id}`);
    await eventually(
      async () => openstack<unknown[]>('server', 'list', '--project', 'launchpad').length === 0,
      180,
      'the server gone',
    );
  }, 900_000);
});
