import { and, eq, isNull } from 'drizzle-orm';
import type { VmStatus } from '../../src/api/contract/vms';
import { providers } from '../db/catalog-schema';
import type { Db, Tx } from '../db/client';
import { vmSnapshots } from '../db/self-service-schema';
import { virtualMachines } from '../db/vm-schema';
import { closeSnapshotPeriods, openSnapshotPeriod } from '../domain/vms/snapshot-periods';
import type { ProviderDriver } from '../providers/driver';
import type { SnapshotOperationKind } from './operations';
import {
  done,
  failedAtProvider,
  failure,
  type EndContext,
  type OperationStep,
  type PollOutcome,
  type StepContext,
} from './steps';

/** The snapshot an operation works on, and its VM. */
async function loadSnapshot(db: Db, snapshotId: number) {
  const [found] = await db
    .select({ snapshot: vmSnapshots, vm: virtualMachines, driver: providers.driver })
    .from(vmSnapshots)
    .innerJoin(virtualMachines, eq(virtualMachines.id, vmSnapshots.vmId))
    .innerJoin(providers, eq(providers.id, virtualMachines.providerId))
    .where(eq(vmSnapshots.id, snapshotId));
  return found;
}
type Subject = NonNullable<Awaited<ReturnType<typeof loadSnapshot>>>;
type Step = OperationStep<Subject>;
type Ctx = StepContext<Subject>;

const load: Step['load'] = async (db, op) => {
  const found = await loadSnapshot(db, Number(op.payload.snapshotId));
  return found && { subject: found, driverKind: found.driver };
};

const setSnapshot = (
  tx: Tx,
  ctx: EndContext<Subject>,
  values: Partial<typeof vmSnapshots.$inferInsert>,
) => tx.update(vmSnapshots).set(values).where(eq(vmSnapshots.id, ctx.subject.snapshot.id));

const setVm = (
  tx: Tx,
  ctx: EndContext<Subject>,
  values: Partial<typeof virtualMachines.$inferInsert>,
) =>
  tx
    .update(virtualMachines)
    .set({ ...values, updatedAt: ctx.now })
    .where(eq(virtualMachines.id, ctx.subject.vm.id));

const serverRef = (ctx: Ctx): string => {
  if (!ctx.subject.vm.providerRef) throw new Error('The VM has no server at the provider');
  return ctx.subject.vm.providerRef;
};

const snapshotRef = (ctx: Ctx): string => {
  if (!ctx.subject.snapshot.providerRef) throw new Error('The snapshot was never taken');
  return ctx.subject.snapshot.providerRef;
};

/** The status the VM had before a restore, to go back to at its end. */
const statusBefore = (ctx: EndContext<Subject>): VmStatus =>
  (ctx.op.payload.from as VmStatus | undefined) ?? 'Running';

export const snapshotSteps: Record<SnapshotOperationKind, Step> = {
  'vm.snapshot': {
    load,
    async submit(ctx) {
      const { ref } = await ctx.driver.createSnapshot(
        serverRef(ctx),
        ctx.subject.snapshot.name,
        ctx.op.clientToken,
      );
      return async (tx) => {
        await tx
          .update(vmSnapshots)
          .set({ providerRef: ref })
          .where(eq(vmSnapshots.id, ctx.subject.snapshot.id));
      };
    },
    async poll(ctx) {
      const state = await ctx.driver.getSnapshot(snapshotRef(ctx));
      if (!state) return failure('The snapshot no longer exists at the provider');
      if (state.status === 'creating') return 'wait';
      if (state.status === 'available') return { ok: true, observed: state.sizeBytes };
      return state.fault
        ? failedAtProvider(state.fault, 'server')
        : failure(`The snapshot is ${state.status}`);
    },
    // Held (and billed by its size) from now until its delete finishes.
    async succeeded(tx, ctx, observed) {
      const sizeBytes = (observed as number | null) ?? null;
      await setSnapshot(tx, ctx, { status: 'available', statusMessage: null, sizeBytes });
      const { snapshot } = ctx.subject;
      await openSnapshotPeriod(tx, {
        companyId: snapshot.companyId,
        vmId: snapshot.vmId,
        snapshotId: snapshot.id,
        // An engine that does not say what it holds has nothing to bill by.
        sizeBytes: sizeBytes ?? 0,
        at: ctx.now,
      });
    },
    failed: (tx, ctx, message) =>
      setSnapshot(tx, ctx, {
        status: 'error',
        statusMessage: `Snapshot failed: ${message}`,
      }).then(),
  },
  'vm.restore': {
    load,
    submit: (ctx) =>
      ctx.driver.restoreSnapshot(serverRef(ctx), snapshotRef(ctx), ctx.op.clientToken),
    async poll(ctx) {
      const state = await ctx.driver.getServer(serverRef(ctx));
      if (!state) return failure('The server no longer exists at the provider');
      if (state.task) return 'wait';
      if (state.fault) return failedAtProvider(state.fault, 'server');
      return { ok: true, observed: state.powerState };
    },
    async succeeded(tx, ctx, powerState) {
      await setSnapshot(tx, ctx, { status: 'available', statusMessage: null });
      const before = statusBefore(ctx);
      // A VM that ran runs again; one that was stopped stays as it was called.
      const status: VmStatus =
        powerState === 'running' ? 'Running' : before === 'Running' ? 'Stopped' : before;
      // The disk is the snapshot's again, and so is its image (a reinstall may have changed it).
      const imageId = ctx.subject.snapshot.imageId ?? ctx.subject.vm.imageId;
      await setVm(tx, ctx, { status, statusMessage: null, imageId });
    },
    async failed(tx, ctx, message) {
      await setSnapshot(tx, ctx, { status: 'available', statusMessage: null });
      await setVm(tx, ctx, {
        status: statusBefore(ctx),
        statusMessage: `Restore failed: ${message}`,
      });
    },
  },
  'vm.snapshotDelete': {
    load,
    async submit(ctx) {
      // A snapshot whose take failed before the provider answered has nothing there to delete.
      const ref = ctx.subject.snapshot.providerRef;
      if (ref && (await ctx.driver.getSnapshot(ref))) {
        await ctx.driver.deleteSnapshot(ref, ctx.op.clientToken);
      }
    },
    async poll(ctx) {
      const ref = ctx.subject.snapshot.providerRef;
      const state = ref ? await ctx.driver.getSnapshot(ref) : null;
      if (!state) return done;
      if (state.status === 'deleting') return 'wait';
      if (state.fault) return failedAtProvider(state.fault, 'server');
      return failure('The snapshot is still there');
    },
    async succeeded(tx, ctx) {
      await setSnapshot(tx, ctx, { deletedAt: ctx.now });
      await closeSnapshotPeriods(tx, [ctx.subject.snapshot.id], ctx.now);
    },
    failed: (tx, ctx, message) =>
      setSnapshot(tx, ctx, { status: 'error', statusMessage: `Delete failed: ${message}` }).then(),
  },
};

/** The snapshots a VM still has (not deleted), with their refs at the provider. */
const snapshotsOf = (db: Db | Tx, vmId: number) =>
  db
    .select({ id: vmSnapshots.id, providerRef: vmSnapshots.providerRef })
    .from(vmSnapshots)
    .where(and(eq(vmSnapshots.vmId, vmId), isNull(vmSnapshots.deletedAt)));

/**
 * A VM's delete takes its snapshots with it: each is deleted at the provider (its own client
 * token, made from the operation's), where an image may outlive its server (OpenStack's do).
 */
export async function deleteSnapshotsOfVm(
  db: Db,
  driver: ProviderDriver,
  vmId: number,
  clientToken: string,
): Promise<void> {
  for (const snapshot of await snapshotsOf(db, vmId)) {
    if (snapshot.providerRef && (await driver.getSnapshot(snapshot.providerRef))) {
      await driver.deleteSnapshot(snapshot.providerRef, `${clientToken}/snapshot-${snapshot.id}`);
    }
  }
}

/** Whether the VM's snapshots are all gone from the provider ('wait' while some are going). */
export async function snapshotsOfVmGone(
  db: Db,
  driver: ProviderDriver,
  vmId: number,
): Promise<PollOutcome> {
  for (const snapshot of await snapshotsOf(db, vmId)) {
    const state = snapshot.providerRef ? await driver.getSnapshot(snapshot.providerRef) : null;
    if (!state) continue;
    if (state.status === 'deleting' || state.status === 'creating') return 'wait';
    if (state.fault) return failedAtProvider(state.fault, 'server');
    return failure('A snapshot of the VM is still there');
  }
  return done;
}

/** Once the VM is deleted, so are its snapshots' rows: they are held no more from `now`. */
export async function markSnapshotsOfVmDeleted(tx: Tx, vmId: number, now: Date): Promise<void> {
  const gone = await tx
    .update(vmSnapshots)
    .set({ deletedAt: now })
    .where(and(eq(vmSnapshots.vmId, vmId), isNull(vmSnapshots.deletedAt)))
    .returning({ id: vmSnapshots.id });
  await closeSnapshotPeriods(
    tx,
    gone.map((snapshot) => snapshot.id),
    now,
  );
}
