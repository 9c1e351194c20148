import type { LookupItem } from '../../../src/api/contract/vms';
import { ROLE } from '../../../src/api/contract/roles';
import {
  activate,
  eventually,
  operatorCall,
  signIn,
  type ApiCall,
  type Credentials,
} from './api-client';
import type { ServerProcess } from './server-process';

/**
 * A small installation made through the API as its operator and customers make one: a
 * distributor, a reseller and two companies from the imports, their Admins and an Operator
 * activated by e-mail, teams, a private network, VMs on the sim engine (each with its generated,
 * encrypted password) in and out of teams, one stopped and one attached to the network, a webhook
 * and an API token, and the event log and durable operations all of that wrote.
 */
export interface World {
  /** The first Admin (the server's bootstrap account). */
  bootstrap: Credentials;
  /** Every account that can sign in, Admins first; `observe` reads through the Admins. */
  admins: Credentials[];
  operators: Credentials[];
}

/** The sim engine's builds and actions in a second. */
export const fastSims = {
  SIM_PROVISION_SECONDS: '1',
  SIM_ACTION_SECONDS: '1',
  SIM_RESIZE_SECONDS: '1',
};

/** The settings a server needs to hold the world: the bootstrap Admin, the imports, fast sims. */
export const worldEnv = (operatorToken: string): Record<string, string> => ({
  BOOTSTRAP_ADMIN_EMAIL: 'founder@launchpad.example',
  BOOTSTRAP_ADMIN_PASSWORD: 'Founder!Backup-Passw0rd',
  OPERATOR_TOKEN: operatorToken,
  // The webhook below names this machine; it subscribes to no event the world makes later.
  WEBHOOK_ALLOW_PRIVATE: 'true',
  ...fastSims,
});

const ACME = { email: 'ada@acme.example', password: 'Acme!Admin-Passw0rd' };
const GLOBEX = { email: 'gil@globex.example', password: 'Globex!Admin-Passw0rd' };
const RESELLER = { email: 'rita@skyline.example', password: 'Skyline!Staff-Passw0rd' };
const OPERATOR = { email: 'otto@acme.example', password: 'Acme!Operator-Passw0rd' };

/** A Small Ubuntu in Los Angeles, found through the create cascade's lookups. */
export async function smallUbuntuOrder(call: ApiCall) {
  const countries = await call<LookupItem[]>('GET', '/virtualMachines/listCountries');
  const us = countries.find((c) => c.name === 'United States')!;
  const [region] = await call<LookupItem[]>('GET', `/virtualMachines/listRegions/${us.id}`);
  const images = await call<LookupItem[]>('GET', `/virtualMachines/listImages/${region!.id}`);
  const ubuntu = images.find((i) => i.name === 'Ubuntu 24.04 LTS')!;
  const [provider] = await call<LookupItem[]>(
    'GET',
    `/virtualMachines/listProviders/${region!.id}?imageId=${ubuntu.id}&configurationId=3`,
  );
  return { regionId: region!.id, imageId: ubuntu.id, configurationId: 3, providerId: provider!.id };
}

type VmList = { data: { id: number; name: string; status: string }[] };

/** Waits until no VM of the caller's company is on its way anywhere. */
export async function settled(call: ApiCall) {
  await eventually(
    async () => {
      const page = await call<VmList>('GET', '/virtualMachines/list?rowsPerPage=100');
      return page.data.every((vm) => vm.status === 'Running' || vm.status === 'Stopped');
    },
    120,
    'every VM Running or Stopped',
  );
}

async function vmId(call: ApiCall, name: string) {
  const page = await call<VmList>('GET', `/virtualMachines/list?rowsPerPage=100&search=${name}`);
  return page.data.find((vm) => vm.name === name)!.id;
}

/** Builds the world on a server started with `worldEnv(operatorToken)` on an empty database. */
export async function populate(server: ServerProcess, operatorToken: string): Promise<World> {
  const env = worldEnv(operatorToken);
  const bootstrap = { email: env.BOOTSTRAP_ADMIN_EMAIL!, password: env.BOOTSTRAP_ADMIN_PASSWORD! };
  const operator = operatorCall(server, operatorToken);
  await operator('/imports/distributer', {
    items: [
      { externalId: 'dist-north', name: 'Northwind Distribution', email: 'ops@northwind.example' },
    ],
  });
  await operator('/imports/reseller', {
    items: [
      {
        externalId: 'res-skyline',
        distributerExternalId: 'dist-north',
        name: 'Skyline Hosting Ltd',
        email: RESELLER.email,
        resellerName: 'Skyline Cloud',
        orderUrls: {
          newCustomer: 'https://skyline.example/orders/new',
          accountChanges: 'https://skyline.example/orders/change',
        },
      },
    ],
  });
  await operator('/imports/company', {
    items: [
      {
        externalId: 'cust-acme',
        resellerExternalId: 'res-skyline',
        name: 'Acme Corporation',
        admin: { email: ACME.email, firstName: 'Ada', lastName: 'Acme' },
      },
      {
        externalId: 'cust-globex',
        resellerExternalId: 'res-skyline',
        name: 'Globex',
        admin: { email: GLOBEX.email, firstName: 'Gil', lastName: 'Globex' },
      },
    ],
  });
  await activate(server, RESELLER, { firstName: 'Rita', lastName: 'Reseller' });
  await activate(server, ACME, { firstName: 'Ada', lastName: 'Acme' });
  await activate(server, GLOBEX, { firstName: 'Gil', lastName: 'Globex' });

  const acme = await signIn(server, ACME);
  const order = await smallUbuntuOrder(acme);
  const { teamId: platform } = await acme<{ teamId: number }>('POST', '/teams/create', {
    name: 'Platform',
  });
  await acme('POST', '/teams/create', { name: 'Data', parentTeamId: platform });
  await acme('POST', '/users/create', {
    email: OPERATOR.email,
    roleId: ROLE.operator,
    teamIds: [platform],
  });
  await activate(server, OPERATOR, { firstName: 'Otto', lastName: 'Operator' });
  const { id: network } = await acme<{ id: number }>('POST', '/networks/create', {
    name: 'acme-private',
    regionId: order.regionId,
    cidrBlock: '10.60.0.0/24',
    networkType: 'custom',
  });
  await acme('POST', '/virtualMachines/create', {
    ...order,
    name: 'acme-web',
    numberOfInstances: 2,
    teamId: platform,
    allocatePublicIp: true,
  });
  await acme('POST', '/virtualMachines/create', {
    ...order,
    name: 'acme-db',
    numberOfInstances: 1,
    teamId: null,
    allocatePublicIp: false,
  });
  await settled(acme);
  // An interface is added to a stopped VM; acme-db is started again, acme-web-2 left stopped.
  const db = await vmId(acme, 'acme-db');
  await acme('POST', `/virtualMachines/stop/${db}`);
  await acme('POST', `/virtualMachines/stop/${await vmId(acme, 'acme-web-2')}`);
  await settled(acme);
  await acme('POST', `/virtualMachines/${db}/addNetworkInterfaces`, { networkId: network });
  await eventually(
    async () =>
      (await acme<{ status: string }[]>('GET', `/networks/listNetAdapters/${db}`)).every(
        (adapter) => adapter.status === 'Active',
      ),
    60,
    'acme-db on acme-private',
  );
  await acme('POST', `/virtualMachines/start/${db}`);
  await settled(acme);
  await acme('POST', '/webhooks/create', {
    url: 'http://127.0.0.1:9/hooks/launchpad',
    events: ['vm.delete'],
  });
  await acme('POST', '/apiTokens/create', {
    name: 'deploy',
    expiresAt: new Date(Date.now() + 300 * 24 * 3600_000).toISOString(),
    access: 'readWrite',
    teamIds: [platform],
  });

  const globex = await signIn(server, GLOBEX);
  const { teamId: ops } = await globex<{ teamId: number }>('POST', '/teams/create', {
    name: 'Ops',
  });
  await globex('POST', '/virtualMachines/create', {
    ...(await smallUbuntuOrder(globex)),
    name: 'globex-app',
    numberOfInstances: 1,
    teamId: ops,
    allocatePublicIp: true,
  });
  await settled(globex);

  return { bootstrap, admins: [bootstrap, ACME, GLOBEX, RESELLER], operators: [OPERATOR] };
}

/**
 * Orders a VM as the Admin and waits for it to settle: proof that an installation brought back
 * (restored, upgraded) still works. Its status and its password as the API gives them.
 */
export async function buildVm(server: ServerProcess, admin: Credentials, name: string) {
  const call = await signIn(server, admin);
  const { ids } = await call<{ ids: number[] }>('POST', '/virtualMachines/create', {
    ...(await smallUbuntuOrder(call)),
    name,
    numberOfInstances: 1,
    teamId: null,
    allocatePublicIp: true,
  });
  await settled(call);
  const { status } = await call<{ status: string }>('GET', `/virtualMachines/details/${ids[0]}`);
  const { sshPassword } = await call<{ sshPassword: string }>(
    'GET',
    `/virtualMachines/getPassword/${ids[0]}`,
  );
  return { status, password: sshPassword };
}
