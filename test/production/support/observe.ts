import { expect } from 'vitest';
import { signIn, type ApiCall } from './api-client';
import type { ServerProcess } from './server-process';
import type { World } from './world';

/**
 * What each Admin sees of the company through the API, in fields every release answers: what a
 * restore or an upgrade must leave as it was. Activity is kept apart, as a later sign-in may add to
 * it.
 */
export interface CompanyView {
  users: string[];
  teams: string[];
  vms: string[];
  networks: string[];
  webhooks: string[];
  apiTokens: string[];
  /** Each VM's password as `getPassword` decrypts it. */
  passwords: Record<string, string>;
  /** Each VM's interfaces: network, addresses, state. */
  adapters: Record<string, string[]>;
  /** `id action outcome subject` of every event, oldest first. */
  activity: string[];
}

export type Observation = Record<string, CompanyView>;

type Adapter = {
  vmnic: number;
  networkName: string;
  privateIp: string | null;
  publicIp: string | null;
  macAddress: string;
  status: string;
};

type Paged<T> = { data: T[]; totalPages: number };

async function all<T>(call: ApiCall, path: string): Promise<T[]> {
  const rows: T[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await call<Paged<T>>(
      'GET',
      `${path}${path.includes('?') ? '&' : '?'}rowsPerPage=100&page=${page}`,
    );
    rows.push(...answer.data);
    if (page >= answer.totalPages) return rows;
  }
}

async function viewOf(call: ApiCall): Promise<CompanyView> {
  const [users, teams, vms, networks, webhooks, apiTokens, activity] = await Promise.all([
    all<{ email: string; firstName: string; lastName: string; isAdmin: boolean }>(
      call,
      '/users/list',
    ),
    all<{ name: string; userCount: number; vmCount: number }>(call, '/teams/list'),
    all<{
      id: number;
      name: string;
      status: string;
      configuration: string;
      primaryIp: { address: string } | null;
    }>(call, '/virtualMachines/list'),
    all<{ name: string; cidrBlock: string; region: string; connectedVms: number }>(
      call,
      '/networks/list',
    ),
    call<{ url: string; events: string[]; disabledAt: string | null }[]>('GET', '/webhooks/list'),
    call<{ name: string; access: string; user: { email: string }; expiresAt: string }[]>(
      'GET',
      '/apiTokens/list?all=true',
    ),
    all<{ id: number; action: string; outcome: string; subject: { name: string } }>(
      call,
      '/activity/list?sortDescending=false',
    ),
  ]);
  const passwords: Record<string, string> = {};
  const adapters: Record<string, string[]> = {};
  for (const vm of vms) {
    passwords[vm.name] = (
      await call<{ sshPassword: string }>('GET', `/virtualMachines/getPassword/${vm.id}`)
    ).sshPassword;
    adapters[vm.name] = (await call<Adapter[]>('GET', `/networks/listNetAdapters/${vm.id}`)).map(
      (a) => `${a.vmnic} ${a.networkName} ${a.privateIp} ${a.publicIp} ${a.macAddress} ${a.status}`,
    );
  }
  const sorted = (lines: string[]) => lines.sort();
  return {
    users: sorted(users.map((u) => `${u.email} ${u.firstName} ${u.lastName} admin=${u.isAdmin}`)),
    teams: sorted(teams.map((t) => `${t.name} users=${t.userCount} vms=${t.vmCount}`)),
    vms: sorted(
      vms.map(
        (v) => `${v.id} ${v.name} ${v.status} ${v.configuration} ${v.primaryIp?.address ?? '-'}`,
      ),
    ),
    networks: sorted(
      networks.map((n) => `${n.name} ${n.cidrBlock} ${n.region} vms=${n.connectedVms}`),
    ),
    webhooks: sorted(
      webhooks.map((w) => `${w.url} ${w.events.join(',')} disabled=${w.disabledAt !== null}`),
    ),
    apiTokens: sorted(
      apiTokens.map((t) => `${t.name} ${t.access} ${t.user.email} ${String(t.expiresAt)}`),
    ),
    passwords,
    adapters,
    activity: activity.map((e) => `${e.id} ${e.action} ${e.outcome} ${e.subject.name}`),
  };
}

/**
 * Signs in every account of the world (password and e-mailed code) and reads each Admin's view.
 * A failed sign-in or an unreadable password throws.
 */
export async function observe(server: ServerProcess, world: World): Promise<Observation> {
  const observation: Observation = {};
  for (const admin of world.admins) {
    observation[admin.email] = await viewOf(await signIn(server, admin));
  }
  for (const operator of world.operators) {
    const call = await signIn(server, operator);
    await call('GET', '/users/me');
  }
  return observation;
}

/**
 * Each Admin sees what they saw before, to the line; the event log may have grown (signing in
 * again can log an event) but holds every earlier event first.
 */
export function expectSameViews(before: Observation, after: Observation) {
  expect(Object.keys(after)).toEqual(Object.keys(before));
  for (const [admin, view] of Object.entries(before)) {
    const { activity, ...rest } = after[admin]!;
    expect({ ...rest, activity: [] }, admin).toEqual({ ...view, activity: [] });
    expect(activity.slice(0, view.activity.length), admin).toEqual(view.activity);
  }
}
