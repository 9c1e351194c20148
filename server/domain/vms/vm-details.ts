import { and, eq } from 'drizzle-orm';
import { vmMessages, type VmDetails } from '../../../src/api/contract/vms';
import { configurations, countries, images, providers, regions } from '../../db/catalog-schema';
import type { Db } from '../../db/client';
import { teams } from '../../db/schema';
import { virtualMachines } from '../../db/vm-schema';
import { conflict } from '../../http-error';
import { issueConsoleTicket, type TicketHolder } from '../../providers/console-ticket';
import { driverKindOf, type DriverMap } from '../../providers/registry';
import type { Caller } from '../tenancy/access';
import { SYSTEM } from '../events/actor';
import { recordVmStatus } from '../events/vm-events';
import type { SecretBox } from '../secrets';
import { primaryIpsOf } from './vm-addresses';
import { requireVmPermission, type VmRecord } from './vm-access';

async function driverOf(db: Db, drivers: DriverMap, vm: VmRecord) {
  const kind = await driverKindOf(db, vm.providerId);
  const driver = kind && drivers.get(kind);
  if (!driver) throw new Error(`No driver for provider ${vm.providerId}`);
  return driver;
}

/**
 * What the provider says of a running VM now: its load, and whether it is still running. A guest
 * that shut itself down (or crashed) is recorded as Shutoff, which offers Start again.
 */
async function observe(db: Db, drivers: DriverMap, vm: VmRecord, now: Date) {
  const idle = { status: vm.status, usage: { cpuUsage: 0, ramUsage: 0 } };
  if (vm.status !== 'Running' || !vm.providerRef) return idle;
  // The details stay readable while the provider is unreachable; only the load is unknown.
  const server = await (
    await driverOf(db, drivers, vm)
  )
    .getServer(vm.providerRef)
    .catch(() => undefined);
  if (server === undefined) return idle;
  if (server && !server.task && server.powerState === 'shutoff') {
    await db.transaction(async (tx) => {
      const [changed] = await tx
        .update(virtualMachines)
        .set({ status: 'Shutoff', updatedAt: now })
        .where(and(eq(virtualMachines.id, vm.id), eq(virtualMachines.status, 'Running')))
        .returning({ id: virtualMachines.id });
      if (changed) await recordVmStatus(tx, vm, 'Shutoff', SYSTEM, now);
    });
    return { ...idle, status: 'Shutoff' as const };
  }
  if (!server) return idle;
  return { status: vm.status, usage: { cpuUsage: server.usage.cpu, ramUsage: server.usage.ram } };
}

export async function getVmDetails(
  db: Db,
  drivers: DriverMap,
  caller: Caller,
  vmId: number,
  now: Date,
): Promise<VmDetails> {
  const { vm, roleId } = await requireVmPermission(db, caller, vmId, 'vm.view');
  const [[info], seen, ips] = await Promise.all([
    db
      .select({
        country: countries.name,
        region: regions.city,
        image: images.name,
        provider: providers.name,
        configuration: configurations.name,
        cpu: configurations.cpu,
        ram: configurations.ram,
        disk: configurations.disk,
        teamName: teams.name,
      })
      .from(virtualMachines)
      .innerJoin(regions, eq(regions.id, virtualMachines.regionId))
      .innerJoin(countries, eq(countries.id, regions.countryId))
      .innerJoin(images, eq(images.id, virtualMachines.imageId))
      .innerJoin(providers, eq(providers.id, virtualMachines.providerId))
      .innerJoin(configurations, eq(configurations.id, virtualMachines.configurationId))
      .leftJoin(teams, eq(teams.id, virtualMachines.teamId))
      .where(eq(virtualMachines.id, vm.id)),
    observe(db, drivers, vm, now),
    primaryIpsOf(db, vm.companyId, [vm.id]),
  ]);
  return {
    status: seen.status,
    consoleAvailable: seen.status === 'Running' && vm.providerRef !== null,
    statusMessage: vm.statusMessage,
    yourRoleId: roleId,
    virtualMachine: {
      id: vm.id,
      name: vm.name,
      country: info!.country,
      configuration: info!.configuration,
      configurationId: vm.configurationId,
      region: info!.region,
      regionId: vm.regionId,
      image: info!.image,
      imageId: vm.imageId,
      provider: info!.provider,
      createdAt: vm.createdAt,
      updatedAt: vm.updatedAt,
      cpu: info!.cpu,
      ram: info!.ram,
      disk: info!.disk,
      username: vm.username,
      teamId: vm.teamId,
      teamName: info!.teamName,
      primaryIp: ips.get(vm.id) ?? null,
      hasPrivateKey: vm.privateKeySecret !== null,
    },
    usage: seen.usage,
  };
}

/** The VM's credentials, for those who may operate it, once it exists at the provider. */
async function credentialsVm(db: Db, caller: Caller, vmId: number) {
  const { vm } = await requireVmPermission(db, caller, vmId, 'vm.operate');
  if (vm.status === 'Provisioning') throw conflict(vmMessages.stillProvisioning);
  return vm;
}

export async function getVmPassword(db: Db, secrets: SecretBox, caller: Caller, vmId: number) {
  const vm = await credentialsVm(db, caller, vmId);
  return { sshPassword: secrets.open(vm.passwordSecret) };
}

export async function getVmPrivateKey(db: Db, secrets: SecretBox, caller: Caller, vmId: number) {
  const vm = await credentialsVm(db, caller, vmId);
  if (!vm.privateKeySecret) throw conflict(vmMessages.noGeneratedKey);
  return { privateKey: secrets.open(vm.privateKeySecret) };
}

/**
 * The address of the VM's console for the caller: the engine's console page and a ticket bound to
 * the caller's session or API token, the caller and the VM, which opens one console within
 * CONSOLE_TICKET_MS.
 */
export async function getVmConsoleUrl(
  db: Db,
  drivers: DriverMap,
  caller: Caller,
  vmId: number,
  tickets: { key: Buffer; holder: TicketHolder; now: Date },
): Promise<{ consoleUrl: string }> {
  const { vm } = await requireVmPermission(db, caller, vmId, 'vm.operate');
  if (vm.status !== 'Running' || !vm.providerRef) throw conflict(vmMessages.consoleUnavailable);
  const driver = await driverOf(db, drivers, vm);
  const page = await driver.consoleUrl(vm.providerRef);
  const ticket = issueConsoleTicket(
    tickets.key,
    { vmId: vm.id, userId: caller.userId, holder: tickets.holder },
    tickets.now,
  );
  return { consoleUrl: `${page}${ticket}` };
}
