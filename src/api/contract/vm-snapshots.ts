import { z } from './zod';
import { emptyEnvelope, envelope, idSchema } from './envelope';
import { NO_CONTROL_CHARACTERS } from './validation';

/**
 * A VM's snapshots: saved states of its disk, taken, restored and deleted by durable operations
 * on its provider. Under `/virtualMachines/snapshots`: `list/{vmId}`, `create/{vmId}`,
 * `restore/{snapshotId}`, `delete/{snapshotId}`.
 */

export const SNAPSHOT_NAME_MAX = 64;
/** How many snapshots one VM may keep (its company's `snapshots` limit counts them all). */
export const SNAPSHOTS_PER_VM = 5;

export const snapshotStatuses = [
  'creating',
  'available',
  'restoring',
  'deleting',
  'error',
] as const;
export type SnapshotStatus = (typeof snapshotStatuses)[number];

export const snapshotMessages = {
  notFound: 'Snapshot not found',
  nameRequired: 'Snapshot name is required',
  nameTooLong: `Snapshot name must not exceed ${SNAPSHOT_NAME_MAX} characters`,
  nameControlCharacters: 'Snapshot name must not contain control characters',
  perVmLimit: `A VM can keep at most ${SNAPSHOTS_PER_VM} snapshots: delete one first`,
  vmBeingDeleted: 'The VM is being deleted',
  vmNotAtRest: 'The VM must be running or stopped to take or restore a snapshot',
  notAvailable: 'The snapshot is not available: wait until it is',
  busy: 'Another snapshot operation of this VM is under way; try again when it ends',
  creating: 'The snapshot is being taken',
  restoring: "The VM's disk is being restored from the snapshot",
  deleting: 'The snapshot is being deleted',
} as const;

export const snapshotName = z
  .string({ error: snapshotMessages.nameRequired })
  .check(
    z.trim(),
    z.minLength(1, snapshotMessages.nameRequired),
    z.maxLength(SNAPSHOT_NAME_MAX, { error: snapshotMessages.nameTooLong, abort: true }),
    z.regex(NO_CONTROL_CHARACTERS, snapshotMessages.nameControlCharacters),
  );

export const vmSnapshot = z.object({
  id: z.int(),
  vmId: z.int(),
  name: z.string(),
  status: z.enum(snapshotStatuses),
  /** Why it is in error (a failed take or delete), in the product's words. */
  statusMessage: z.nullable(z.string()),
  /** Bytes it holds on the provider, once known. */
  sizeBytes: z.nullable(z.int()),
  createdAt: z.date(),
});
export type VmSnapshot = z.infer<typeof vmSnapshot>;

export const snapshotVmIdParam = z.object({ vmId: idSchema });
export const snapshotIdParam = z.object({ snapshotId: idSchema });

/** The VM's snapshots, newest first, with what the VM may still take. */
export const listSnapshotsResponse = envelope(
  z.object({
    snapshots: z.array(vmSnapshot),
    /** The per-VM limit (`SNAPSHOTS_PER_VM`). */
    maxPerVm: z.int(),
  }),
);
export type SnapshotList = z.infer<typeof listSnapshotsResponse>['data'];

export const createSnapshotBody = z.object({ name: snapshotName });
export type CreateSnapshotBody = z.input<typeof createSnapshotBody>;
export const createSnapshotResponse = envelope(z.object({ id: z.int() }));

export const snapshotActionResponse = emptyEnvelope;
