import type { LookupItem, VmDetails } from '../../../src/api/contract/vms';
import { readCode, type Credentials } from './journey';
import type { RunningServer } from './server-process';

/** The token of a verified session: password, then the e-mailed code. */
export async function apiToken(server: RunningServer, credentials: Credentials) {
  const api = `${server.url}/api/v1`;
  const login = await fetch(`${api}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  if (login.status !== 200) throw new Error(`login: ${login.status}`);
  const token = login.headers.get('authorization')!.replace(/^Bearer /, '');
  const mfa = await fetch(`${api}/auth/mfa`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ code: await readCode(server, credentials.email) }),
  });
  if (mfa.status !== 200) throw new Error(`code: ${mfa.status}`);
  return token;
}

/** A verified API session of a running server, for journeys that need no browser. */
export async function apiSession(server: RunningServer, credentials: Credentials) {
  const api = `${server.url}/api/v1`;
  const token = await apiToken(server, credentials);
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${api}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as { data: T; message: string };
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${json.message}`);
    return json.data;
  };
  return call;
}

export type ApiCall = Awaited<ReturnType<typeof apiSession>>;

/** Calls with the server's operator token (the imports, the sim faults); the call must succeed. */
export function operatorCalls(server: RunningServer, operatorToken: string) {
  return async (path: string, body: unknown, method = 'POST') => {
    const res = await fetch(`${server.url}/api/v1${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${operatorToken}` },
      body: JSON.stringify(body),
    });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  };
}

/** Polls until `check` answers true; throws after `seconds`. */
export async function eventually(check: () => Promise<boolean>, seconds: number, what: string) {
  const deadline = Date.now() + seconds * 1000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${seconds} s`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** A Small Ubuntu in Los Angeles, found through the create cascade's lookups. */
export async function smallUbuntuOrder(call: ApiCall) {
  const countries = await call<LookupItem[]>('GET', '/virtualMachines/listCountries');
  const us = countries.find((c) => c.name === 'United States')!;
  const [la] = await call<LookupItem[]>('GET', `/virtualMachines/listRegions/${us.id}`);
  const images = await call<LookupItem[]>('GET', `/virtualMachines/listImages/${la!.id}`);
  const ubuntu = images.find((i) => i.name === 'Ubuntu 24.04 LTS')!;
  const [provider] = await call<LookupItem[]>(
    'GET',
    `/virtualMachines/listProviders/${la!.id}?imageId=${ubuntu.id}&configurationId=3`,
  );
  return { regionId: la!.id, imageId: ubuntu.id, configurationId: 3, providerId: provider!.id };
}

/** A Small Ubuntu of no team, ordered through the API and waited for until it runs; its id. */
export async function runningVm(call: ApiCall, name: string, allocatePublicIp = false) {
  const { ids } = await call<{ ids: number[] }>('POST', '/virtualMachines/create', {
    ...(await smallUbuntuOrder(call)),
    name,
    numberOfInstances: 1,
    teamId: null,
    allocatePublicIp,
  });
  const id = ids[0]!;
  await eventually(
    async () =>
      (await call<VmDetails>('GET', `/virtualMachines/details/${id}`)).status === 'Running',
    60,
    `${name} running`,
  );
  return id;
}
