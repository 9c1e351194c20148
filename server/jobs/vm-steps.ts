import { eq } from 'drizzle-orm';
import type { VmStatus } from '../../src/api/contract/vms';
import { configurations, images, providers, regions } from '../db/catalog-schema';
import type { Db, Tx } from '../db/client';
import { virtualMachines } from '../db/vm-schema';
import type { SecretBox } from '../domain/secrets';
import { closeSizePeriod, openSizePeriod } from '../domain/vm-usage';
import type { ProviderDriver, ServerState } from '../providers/driver';
import type { OperationRow, VmOperationKind } from './operations';

/** The VM as an operation needs it: its row and the provider's names of its catalogue entries. */
export async function loadVmForOperation(db: Db, vmId: number) {
  const [vm] = await db
    .select({
      row: virtualMachines,
      driver: providers.driver,
      providerKey: providers.key,
      regionKey: regions.key,
      imageKey: images.key,
      sizeKey: configurations.key,
    })
    .from(virtualMachines)
    .innerJoin(providers, eq(providers.id, virtualMachines.providerId))
    .innerJoin(regions, eq(regions.id, virtualMachines.regionId))
    .innerJoin(images, eq(images.id, virtualMachines.imageId))
    .innerJoin(configurations, eq(configurations.id, virtualMachines.configurationId))
    .where(eq(virtualMachines.id, vmId));
  return vm;
}
export type OperationVm = NonNullable<Awaited<ReturnType<typeof loadVmForOperation>>>;

export interface StepContext {
  op: OperationRow;
  vm: OperationVm;
  driver: ProviderDriver;
  secrets: SecretBox;
  now: Date;
}

export type PollOutcome = 'wait' | { ok: true } | { ok: false; message: string };

/** One kind of operation: the driver call, how to read its progress, and what its end writes. */
export interface VmStep {
  /** Makes the driver call; answers the server's ref when the call creates one. */
  submit(ctx: StepContext): Promise<{ providerRef?: string } | void>;
  poll(state: ServerState | null, ctx: StepContext): PollOutcome;
  succeeded(tx: Tx, ctx: StepContext): Promise<void>;
  failed(tx: Tx, ctx: StepContext, message: string): Promise<void>;
}

const setVm = (tx: Tx, ctx: StepContext, values: Partial<typeof virtualMachines.$inferInsert>) =>
  tx
    .update(virtualMachines)
    .set({ ...values, updatedAt: ctx.now })
    .where(eq(virtualMachines.id, ctx.vm.row.id));

const requireRef = (ctx: StepContext): string => {
  if (!ctx.vm.row.providerRef) throw new Error('The VM has no server at the provider');
  return ctx.vm.row.providerRef;
};

/** The status the VM had before the operation, to return to when it fails. */
const previousStatus = (ctx: StepContext, fallback: VmStatus): VmStatus =>
  (ctx.op.payload.from as VmStatus | undefined) ?? fallback;

/** A power task is over when the server is at rest; a fault recorded by it means it failed. */
function pollPower(state: ServerState | null, reached: ServerState['powerState']): PollOutcome {
  if (!state) return { ok: false, message: 'The server no longer exists at the provider' };
  if (state.task) return 'wait';
  if (state.fault) return { ok: false, message: state.fault };
  if (state.powerState === reached) return { ok: true };
  return { ok: false, message: `The server is ${state.powerState}` };
}

/** A power action that failed leaves the VM as it was, with the reason shown. */
const restore =
  (fallback: VmStatus, verb: string): VmStep['failed'] =>
  async (tx, ctx, message) => {
    await setVm(tx, ctx, {
      status: previousStatus(ctx, fallback),
      statusMessage: `${verb} failed: ${message}`,
    });
  };

const steps: Record<VmOperationKind, VmStep> = {
  'vm.create': {
    async submit({ op, vm, driver, secrets }) {
      const { ref } = await driver.createServer({
        clientToken: op.clientToken,
        providerKey: vm.providerKey,
        regionKey: vm.regionKey,
        imageKey: vm.imageKey,
        sizeKey: vm.sizeKey,
        name: vm.row.name,
        username: vm.row.username,
        password: secrets.open(vm.row.passwordSecret),
        publicKey: vm.row.publicKey,
      });
      return { providerRef: ref };
    },
    poll(state) {
      if (!state) return { ok: false, message: 'The server no longer exists at the provider' };
      if (state.task) return 'wait';
      if (state.powerState === 'running') return { ok: true };
      return { ok: false, message: state.fault ?? `The server is ${state.powerState}` };
    },
    succeeded: (tx, ctx) => setVm(tx, ctx, { status: 'Running', statusMessage: null }).then(),
    failed: (tx, ctx, message) =>
      setVm(tx, ctx, { status: 'Error', statusMessage: `Provisioning failed: ${message}` }).then(),
  },
  'vm.start': {
    submit: (ctx) => ctx.driver.startServer(requireRef(ctx), ctx.op.clientToken),
    poll: (state) => pollPower(state, 'running'),
    succeeded: (tx, ctx) => setVm(tx, ctx, { status: 'Running', statusMessage: null }).then(),
    failed: restore('Stopped', 'Start'),
  },
  'vm.stop': {
    submit: (ctx) => ctx.driver.stopServer(requireRef(ctx), ctx.op.clientToken),
    poll: (state) => pollPower(state, 'shutoff'),
    succeeded: (tx, ctx) => setVm(tx, ctx, { status: 'Stopped', statusMessage: null }).then(),
    failed: restore('Running', 'Stop'),
  },
  'vm.reboot': {
    submit: (ctx) => ctx.driver.rebootServer(requireRef(ctx), ctx.op.clientToken),
    poll: (state) => pollPower(state, 'running'),
    succeeded: (tx, ctx) => setVm(tx, ctx, { status: 'Running', statusMessage: null }).then(),
    failed: restore('Running', 'Reset'),
  },
  'vm.resize': {
    submit: (ctx) =>
      ctx.driver.resizeServer(requireRef(ctx), String(ctx.op.payload.sizeKey), ctx.op.clientToken),
    poll(state, ctx) {
      if (!state) return { ok: false, message: 'The server no longer exists at the provider' };
      if (state.task) return 'wait';
      if (state.fault) return { ok: false, message: state.fault };
      return state.sizeKey === ctx.op.payload.sizeKey
        ? { ok: true }
        : { ok: false, message: 'The size did not change' };
    },
    async succeeded(tx, ctx) {
      const configurationId = Number(ctx.op.payload.configurationId);
      await setVm(tx, ctx, {
        configurationId,
        status: previousStatus(ctx, 'Running'),
        statusMessage: null,
      });
      await closeSizePeriod(tx, ctx.vm.row.id, ctx.now);
      await openSizePeriod(tx, {
        companyId: ctx.vm.row.companyId,
        vmId: ctx.vm.row.id,
        configurationId,
        at: ctx.now,
      });
    },
    failed: restore('Running', 'Upgrade'),
  },
  'vm.delete': {
    async submit(ctx) {
      // A create that never reached the provider, or a server already gone, leaves nothing to do.
      const ref = ctx.vm.row.providerRef;
      if (ref && (await ctx.driver.getServer(ref))) {
        await ctx.driver.deleteServer(ref, ctx.op.clientToken);
      }
    },
    poll(state) {
      if (!state) return { ok: true };
      if (state.task) return 'wait';
      return { ok: false, message: state.fault ?? 'The server is still there' };
    },
    succeeded: (tx, ctx) => closeSizePeriod(tx, ctx.vm.row.id, ctx.now),
    // The VM comes back into the lists, in Error, so that the user sees it still exists.
    failed: (tx, ctx, message) =>
      setVm(tx, ctx, {
        deletedAt: null,
        status: 'Error',
        statusMessage: `Delete failed: ${message}`,
      }).then(),
  },
};

export const vmStepFor = (kind: string): VmStep | undefined => steps[kind as VmOperationKind];
