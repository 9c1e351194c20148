import { and, eq } from 'drizzle-orm';
import { VM_NAME_MAX, vmMessages, type createVmBody } from '../../../src/api/contract/vms';
import type { z } from '../../../src/api/contract/zod';
import {
  configurations,
  images,
  providerImages,
  providerOffers,
  regions,
} from '../../db/catalog-schema';
import type { CompanyLimits } from '../../config';
import type { Db, Tx } from '../../db/client';
import { vmInterfaces } from '../../db/network-schema';
import { PRIMARY_VMNIC } from '../../../src/api/contract/networks';
import {
  allocatePrivateIp,
  newMacAddress,
  reservePublicIp,
  type NetworkRecord,
} from '../networks/addresses';
import { ensureDefaultNetwork } from '../networks/network-records';
import { teams } from '../../db/schema';
import { virtualMachines } from '../../db/vm-schema';
import { badRequest, forbidden, notFound } from '../../http-error';
import { enqueueOperation } from '../../jobs/operations';
import { userActor } from '../events/actor';
import { requireTeamPermission, type Caller } from '../tenancy/access';
import type { SecretBox } from '../secrets';
import { chosenAccountKeys } from '../ssh-keys/account-keys';
import { generateSshKeyPair, generateVmPassword } from './vm-credentials';
import { openSizePeriod } from './vm-usage';
import { requireVmRoom } from './vm-limits';

type CreateVmInput = z.output<typeof createVmBody>;

/** Copies are numbered `name-1` … `name-10`. */
const namesFor = (name: string, count: number) =>
  count === 1 ? [name] : Array.from({ length: count }, (_, i) => `${name}-${i + 1}`);

/** The catalogue entries of the order, checked to fit together; a misfit names its field. */
async function resolveOrder(db: Db, input: CreateVmInput) {
  const [region] = await db
    .select({ id: regions.id })
    .from(regions)
    .where(eq(regions.id, input.regionId));
  if (!region) throw badRequest(vmMessages.regionNotFound, 'regionId');
  const [image] = await db
    .select({ id: images.id, username: images.username })
    .from(images)
    .where(and(eq(images.id, input.imageId), eq(images.regionId, input.regionId)));
  if (!image) throw badRequest(vmMessages.imageNotFound, 'imageId');
  const [size] = await db
    .select({ cpu: configurations.cpu, ram: configurations.ram })
    .from(configurations)
    .where(eq(configurations.id, input.configurationId));
  if (!size) throw badRequest(vmMessages.configurationNotFound, 'configurationId');
  const [offer] = await db
    .select({ providerId: providerOffers.providerId })
    .from(providerOffers)
    .innerJoin(
      providerImages,
      and(
        eq(providerImages.providerId, providerOffers.providerId),
        eq(providerImages.imageId, input.imageId),
      ),
    )
    .where(
      and(
        eq(providerOffers.providerId, input.providerId),
        eq(providerOffers.regionId, input.regionId),
        eq(providerOffers.configurationId, input.configurationId),
      ),
    );
  if (!offer) throw badRequest(vmMessages.providerNotFound, 'providerId');
  return { username: image.username, size };
}

/** The primary interface (vmnic 1), made with the server; with a public address if asked for. */
async function addPrimaryInterface(
  tx: Tx,
  input: {
    companyId: number;
    vmId: number;
    network: NetworkRecord;
    publicIp: boolean;
    now: Date;
    limits: CompanyLimits;
  },
) {
  const [row] = await tx
    .insert(vmInterfaces)
    .values({
      companyId: input.companyId,
      vmId: input.vmId,
      networkId: input.network.id,
      vmnic: PRIMARY_VMNIC,
      privateIp: await allocatePrivateIp(tx, input.network),
      macAddress: newMacAddress(),
      status: 'Attaching',
      createdAt: input.now,
      updatedAt: input.now,
    })
    .returning({ id: vmInterfaces.id });
  if (input.publicIp) {
    await reservePublicIp(
      tx,
      { regionId: input.network.regionId, companyId: input.companyId, limits: input.limits },
      { interfaceId: row!.id },
      'Allocating',
      input.now,
    );
  }
}

/**
 * Orders `numberOfInstances` VMs, all of them or none within the company's limits in the region.
 * Each gets its own generated password and, unless only account keys were chosen, SSH key pair
 * (kept encrypted), and the chosen account keys of the caller; it starts Provisioning,
 * opens its usage period, gets its primary interface on the region's default network (and a
 * public address when asked for) and a create operation — all in one transaction, so a VM never
 * exists without the work that builds it. Answers the new ids.
 */
export async function createVms(
  db: Db,
  caller: Caller,
  input: CreateVmInput,
  context: { secrets: SecretBox; now: Date; limits: CompanyLimits },
): Promise<number[]> {
  const teamId = input.teamId ?? null;
  if (teamId === null) {
    if (!caller.isAdmin) throw forbidden(vmMessages.noTeamAdminsOnly);
  } else {
    await requireTeamPermission(db, caller, teamId, 'vm.create');
  }
  if (input.numberOfInstances > 1 && input.name.length > VM_NAME_MAX - 3) {
    throw badRequest(vmMessages.nameWithCopiesTooLong, 'name');
  }
  const { username, size } = await resolveOrder(db, input);
  const accountKeys = await chosenAccountKeys(db, caller, input.sshKeyIds);

  const names = namesFor(input.name, input.numberOfInstances);
  const credentials = await Promise.all(
    names.map(async (name) => ({
      password: generateVmPassword(),
      keys: input.generateKeyPair ? await generateSshKeyPair(`${username}@${name}`) : null,
    })),
  );
  const { secrets, now, limits } = context;
  return db.transaction(async (tx) => {
    // The team must not be deleted before its new VMs point at it.
    if (teamId !== null) {
      const [team] = await tx
        .select({ id: teams.id })
        .from(teams)
        .where(and(eq(teams.id, teamId), eq(teams.companyId, caller.companyId)))
        .for('key share');
      if (!team) throw notFound(vmMessages.teamNotFound);
    }
    const copies = names.length;
    await requireVmRoom(
      tx,
      { companyId: caller.companyId, regionId: input.regionId, limits },
      { vms: copies, cpu: size.cpu * copies, ram: size.ram * copies },
    );
    const actor = await userActor(tx, caller.userId);
    const network = await ensureDefaultNetwork(tx, {
      companyId: caller.companyId,
      regionId: input.regionId,
      actor,
      now,
      limits,
    });
    const ids: number[] = [];
    for (const [index, name] of names.entries()) {
      const { password, keys } = credentials[index]!;
      const [row] = await tx
        .insert(virtualMachines)
        .values({
          companyId: caller.companyId,
          teamId,
          name,
          regionId: input.regionId,
          imageId: input.imageId,
          configurationId: input.configurationId,
          providerId: input.providerId,
          status: 'Provisioning',
          username,
          passwordSecret: secrets.seal(password),
          privateKeySecret: keys && secrets.seal(keys.privateKey),
          publicKey: keys?.publicKey ?? null,
          authorizedKeys: accountKeys,
          allocatePublicIp: input.allocatePublicIp,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: virtualMachines.id });
      const vmId = row!.id;
      ids.push(vmId);
      await openSizePeriod(tx, {
        companyId: caller.companyId,
        vmId,
        configurationId: input.configurationId,
        at: now,
      });
      await addPrimaryInterface(tx, {
        companyId: caller.companyId,
        vmId,
        network,
        publicIp: input.allocatePublicIp,
        now,
        limits,
      });
      await enqueueOperation(tx, {
        companyId: caller.companyId,
        vmId,
        kind: 'vm.create',
        activity: { actor, action: 'vm.created', subject: { type: 'vm', id: vmId, name }, teamId },
        now,
      });
    }
    return ids;
  });
}
