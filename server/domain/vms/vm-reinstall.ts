import { and, eq } from 'drizzle-orm';
import { vmMessages, vmRules } from '../../../src/api/contract/vms';
import { images, providerImages } from '../../db/catalog-schema';
import type { Db } from '../../db/client';
import { badRequest, conflict } from '../../http-error';
import { chosenAccountKeys } from '../ssh-keys/account-keys';
import type { SecretBox } from '../secrets';
import type { Caller } from '../tenancy/access';
import { transition } from './vm-actions';
import { unlessBeingDeleted } from './vm-being-deleted';
import { generateSshKeyPair, generateVmPassword } from './vm-credentials';

/**
 * Reinstalls a VM from an image its provider offers in its region (the same one or another): the
 * disk is laid down afresh with a new password, and a new generated key pair unless account keys
 * are chosen (`sshKeyIds`, then only those). The VM keeps its name, size, team, interfaces and
 * public IPs. The new image and credentials travel sealed in the operation and take the VM's
 * place when it succeeds; until then the old ones stay readable.
 */
export function reinstallVm(
  db: Db,
  caller: Caller,
  input: { id: number; imageId: number; sshKeyIds?: number[] | undefined },
  context: { secrets: SecretBox; now: Date },
): Promise<void> {
  return unlessBeingDeleted(db, caller, input.id, () =>
    transition(db, caller, input.id, {
      permission: 'vm.operate',
      allowed: vmRules.canReinstall,
      refusal: vmMessages.busy,
      kind: 'vm.reinstall',
      action: 'vm.reinstall',
      change: { status: 'Reinstalling' },
      now: context.now,
      async prepare(tx, vm) {
        if (!vm.providerRef) throw conflict(vmMessages.reinstallNoServer);
        const [image] = await tx
          .select({ id: images.id, key: images.key, name: images.name, username: images.username })
          .from(images)
          .innerJoin(
            providerImages,
            and(
              eq(providerImages.imageId, images.id),
              eq(providerImages.providerId, vm.providerId),
            ),
          )
          .where(and(eq(images.id, input.imageId), eq(images.regionId, vm.regionId)));
        if (!image) throw badRequest(vmMessages.reinstallImageNotOffered, 'imageId');
        const [current] = await tx
          .select({ name: images.name })
          .from(images)
          .where(eq(images.id, vm.imageId));

        const accountKeys = input.sshKeyIds?.length
          ? await chosenAccountKeys(tx, caller, input.sshKeyIds)
          : [];
        const generated =
          accountKeys.length > 0 ? null : await generateSshKeyPair(`${image.username}@${vm.name}`);
        const { secrets } = context;
        return {
          payload: {
            reinstall: {
              imageId: image.id,
              imageKey: image.key,
              username: image.username,
              passwordSecret: secrets.seal(generateVmPassword()),
              privateKeySecret: generated && secrets.seal(generated.privateKey),
              publicKey: generated?.publicKey ?? null,
              authorizedKeys: accountKeys,
            },
          },
          detail: { from: current?.name ?? '', to: image.name },
        };
      },
    }),
  );
}
