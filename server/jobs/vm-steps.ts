import { and, eq } from 'drizzle-orm';
import type { VmStatus } from '../../src/api/contract/vms';
import { configurations, images, providers, regions } from '../db/catalog-schema';
import type { Db, Tx } from '../db/client';
import { networks, publicIps, vmInterfaces } from '../db/network-schema';
import { virtualMachines } from '../db/vm-schema';
import { dropVmInterfaces } from '../domain/networks/addresses';
import { closeRunPeriod, closeSizePeriod, openSizePeriod } from '../domain/vms/vm-usage';
import type { ServerState } from '../providers/driver';
import type { VmOperationKind } from './operations';
import { requireNetworkRef } from './network-steps';
import { deleteSnapshotsOfVm, markSnapshotsOfVmDeleted, snapshotsOfVmGone } from './snapshot-steps';
import {
  done,
  failedAtProvider,
  failure,
  faultOr,
  type EndContext,
  type OperationStep,
  type PollOutcome,
  type StepContext,
} from './steps';

/** The VM as an operation needs it: its row and the provider's names of its catalogue entries. */
async function loadVm(db: Db, vmId: number) {
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
type OperationVm = NonNullable<Awaited<ReturnType<typeof loadVm>>>;
type VmContext = StepContext<OperationVm>;
type VmStep = OperationStep<OperationVm>;

const load: VmStep['load'] = async (db, op) => {
  const vm = op.vmId === null ? undefined : await loadVm(db, op.vmId);
  return vm && { subject: vm, driverKind: vm.driver };
};

const setVm = (
  tx: Tx,
  ctx: EndContext<OperationVm>,
  values: Partial<typeof virtualMachines.$inferInsert>,
) =>
  tx
    .update(virtualMachines)
    .set({ ...values, updatedAt: ctx.now })
    .where(eq(virtualMachines.id, ctx.subject.row.id));

const requireRef = (ctx: VmContext): string => {
  if (!ctx.subject.row.providerRef) throw new Error('The VM has no server at the provider');
  return ctx.subject.row.providerRef;
};

const serverOf = (ctx: VmContext) => ctx.driver.getServer(requireRef(ctx));

/** The status the VM had before the operation, to return to when it fails. */
const previousStatus = (ctx: EndContext<OperationVm>, fallback: VmStatus): VmStatus =>
  (ctx.op.payload.from as VmStatus | undefined) ?? fallback;

/** A power task is over when the server is at rest; a fault recorded by it means it failed. */
function pollPower(state: ServerState | null, reached: ServerState['powerState']): PollOutcome {
  if (!state) return failure('The server no longer exists at the provider');
  if (state.task) return 'wait';
  if (state.fault) return failedAtProvider(state.fault, 'server');
  if (state.powerState === reached) return done;
  return failure(`The server is ${state.powerState}`);
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

/** The primary interface, its network's ref at the provider and its public address. */
async function primaryPort(db: Db | Tx, vmId: number) {
  const [port] = await db
    .select({
      id: vmInterfaces.id,
      privateIp: vmInterfaces.privateIp,
      macAddress: vmInterfaces.macAddress,
      network: networks,
      publicIp: publicIps.address,
    })
    .from(vmInterfaces)
    .innerJoin(networks, eq(networks.id, vmInterfaces.networkId))
    .leftJoin(publicIps, eq(publicIps.interfaceId, vmInterfaces.id))
    .where(and(eq(vmInterfaces.vmId, vmId), eq(vmInterfaces.vmnic, 1)));
  return port;
}

/** What a reinstall lays down, as `reinstallVm` wrote it in the operation (secrets sealed). */
interface ReinstallPayload {
  imageId: number;
  imageKey: string;
  username: string;
  passwordSecret: string;
  privateKeySecret: string | null;
  publicKey: string | null;
  authorizedKeys: string[];
}
const reinstallOf = (op: { payload: Record<string, unknown> }) =>
  op.payload.reinstall as ReinstallPayload;

const power = (
  kind: 'start' | 'stop' | 'reboot',
  reached: ServerState['powerState'],
  after: VmStatus,
  onFailure: VmStep['failed'],
): VmStep => ({
  load,
  submit: async (ctx) => {
    const ref = requireRef(ctx);
    const token = ctx.op.clientToken;
    if (kind === 'start') await ctx.driver.startServer(ref, token);
    else if (kind === 'stop') await ctx.driver.stopServer(ref, token);
    else await ctx.driver.rebootServer(ref, token);
  },
  poll: async (ctx) => pollPower(await serverOf(ctx), reached),
  succeeded: (tx, ctx) => setVm(tx, ctx, { status: after, statusMessage: null }).then(),
  failed: onFailure,
});

export const vmSteps: Record<VmOperationKind, VmStep> = {
  'vm.create': {
    load,
    async submit(ctx) {
      const { op, subject: vm, driver, secrets } = ctx;
      const port = await primaryPort(ctx.db, vm.row.id);
      if (!port) throw new Error('The VM has no primary interface');
      const networkRef = await requireNetworkRef(ctx.db, port.network);
      const { ref } = await driver.createServer({
        clientToken: op.clientToken,
        providerKey: vm.providerKey,
        regionKey: vm.regionKey,
        imageKey: vm.imageKey,
        sizeKey: vm.sizeKey,
        name: vm.row.name,
        username: vm.row.username,
        password: secrets.open(vm.row.passwordSecret),
        authorizedKeys: [vm.row.publicKey, ...vm.row.authorizedKeys].filter(
          (key): key is string => key !== null,
        ),
        generatedPublicKey: vm.row.publicKey,
        primaryPort: {
          networkRef,
          fixedIp: port.privateIp,
          macAddress: port.macAddress,
        },
        publicIp: port.publicIp,
      });
      return async (tx) => {
        await tx
          .update(virtualMachines)
          .set({ providerRef: ref })
          .where(eq(virtualMachines.id, vm.row.id));
      };
    },
    async poll(ctx) {
      const state = await serverOf(ctx);
      if (!state) return failure('The server no longer exists at the provider');
      if (state.task) return 'wait';
      if (state.powerState === 'running') return { ok: true, observed: state };
      return faultOr(state.fault, 'server', `The server is ${state.powerState}`);
    },
    async succeeded(tx, ctx, observed) {
      await setVm(tx, ctx, { status: 'Running', statusMessage: null });
      const port = await primaryPort(tx, ctx.subject.row.id);
      if (!port) return;
      const { ports } = observed as ServerState;
      const portRef = ports.find((p) => p.macAddress === port.macAddress)?.ref ?? null;
      await tx
        .update(vmInterfaces)
        .set({ status: 'Active', portRef, updatedAt: ctx.now })
        .where(eq(vmInterfaces.id, port.id));
      await tx
        .update(publicIps)
        .set({ status: 'Active' })
        .where(eq(publicIps.interfaceId, port.id));
    },
    async failed(tx, ctx, message) {
      await setVm(tx, ctx, { status: 'Error', statusMessage: `Provisioning failed: ${message}` });
      const port = await primaryPort(tx, ctx.subject.row.id);
      if (!port) return;
      // The failed server may still hold its port and address at the provider: both stay
      // reserved until the VM is deleted, but nothing is under way on them any more.
      await tx
        .update(vmInterfaces)
        .set({ status: 'Error', statusMessage: message, updatedAt: ctx.now })
        .where(eq(vmInterfaces.id, port.id));
      await tx
        .update(publicIps)
        .set({ status: 'Active' })
        .where(eq(publicIps.interfaceId, port.id));
    },
  },
  'vm.start': power('start', 'running', 'Running', restore('Stopped', 'Start')),
  'vm.stop': power('stop', 'shutoff', 'Stopped', restore('Running', 'Stop')),
  'vm.reboot': power('reboot', 'running', 'Running', restore('Running', 'Reset')),
  'vm.resize': {
    load,
    submit: (ctx) =>
      ctx.driver.resizeServer(requireRef(ctx), String(ctx.op.payload.sizeKey), ctx.op.clientToken),
    async poll(ctx) {
      const state = await serverOf(ctx);
      if (!state) return failure('The server no longer exists at the provider');
      if (state.task) return 'wait';
      if (state.fault) return failedAtProvider(state.fault, 'server');
      return state.sizeKey === ctx.op.payload.sizeKey ? done : failure('The size did not change');
    },
    async succeeded(tx, ctx) {
      const configurationId = Number(ctx.op.payload.configurationId);
      await setVm(tx, ctx, {
        configurationId,
        status: previousStatus(ctx, 'Running'),
        statusMessage: null,
      });
      await closeSizePeriod(tx, ctx.subject.row.id, ctx.now);
      await openSizePeriod(tx, {
        companyId: ctx.subject.row.companyId,
        vmId: ctx.subject.row.id,
        configurationId,
        at: ctx.now,
      });
    },
    failed: restore('Running', 'Upgrade'),
  },
  'vm.reinstall': {
    load,
    submit(ctx) {
      const next = reinstallOf(ctx.op);
      return ctx.driver.rebuildServer(requireRef(ctx), {
        clientToken: ctx.op.clientToken,
        imageKey: next.imageKey,
        username: next.username,
        password: ctx.secrets.open(next.passwordSecret),
        authorizedKeys: [next.publicKey, ...next.authorizedKeys].filter(
          (key): key is string => key !== null,
        ),
        generatedPublicKey: next.publicKey,
      });
    },
    async poll(ctx) {
      const state = await serverOf(ctx);
      if (!state) return failure('The server no longer exists at the provider');
      if (state.task) return 'wait';
      if (state.fault) return failedAtProvider(state.fault, 'server');
      if (state.powerState === 'running' || state.powerState === 'shutoff') {
        return { ok: true, observed: state };
      }
      return failure(`The server is ${state.powerState}`);
    },
    // The new image and credentials hold from now on; a server that was shut off stays so.
    async succeeded(tx, ctx, observed) {
      const next = reinstallOf(ctx.op);
      const from = previousStatus(ctx, 'Running');
      const stopped = from === 'Stopped' || from === 'Shutoff' ? from : 'Stopped';
      await setVm(tx, ctx, {
        imageId: next.imageId,
        username: next.username,
        passwordSecret: next.passwordSecret,
        privateKeySecret: next.privateKeySecret,
        publicKey: next.publicKey,
        authorizedKeys: next.authorizedKeys,
        status: (observed as ServerState).powerState === 'shutoff' ? stopped : 'Running',
        statusMessage: null,
      });
    },
    // Its disk may be half rebuilt: the VM is in Error (a reinstall again mends it), and keeps
    // the credentials it had, which the server may still hold.
    failed: (tx, ctx, message) =>
      setVm(tx, ctx, { status: 'Error', statusMessage: `Reinstall failed: ${message}` }).then(),
  },
  'vm.delete': {
    load,
    async submit(ctx) {
      await deleteSnapshotsOfVm(ctx.db, ctx.driver, ctx.subject.row.id, ctx.op.clientToken);
      // A create that never reached the provider, or a server already gone, leaves nothing to do.
      const ref = ctx.subject.row.providerRef;
      if (ref && (await ctx.driver.getServer(ref))) {
        await ctx.driver.deleteServer(ref, ctx.op.clientToken);
      }
    },
    async poll(ctx) {
      const ref = ctx.subject.row.providerRef;
      const state = ref ? await ctx.driver.getServer(ref) : null;
      if (!state) return snapshotsOfVmGone(ctx.db, ctx.driver, ctx.subject.row.id);
      if (state.task) return 'wait';
      return faultOr(state.fault, 'server', 'The server is still there');
    },
    async succeeded(tx, ctx) {
      // Its status stays what it was (no `vm.status` event): a VM deleted while it ran stops
      // running here, as it stops existing.
      await closeSizePeriod(tx, ctx.subject.row.id, ctx.now);
      await closeRunPeriod(tx, ctx.subject.row.id, ctx.now);
      await dropVmInterfaces(tx, ctx.subject.row.id, ctx.now);
      await markSnapshotsOfVmDeleted(tx, ctx.subject.row.id, ctx.now);
    },
    // The VM comes back into the lists, in Error, so that the user sees it still exists.
    failed: (tx, ctx, message) =>
      setVm(tx, ctx, {
        deletedAt: null,
        status: 'Error',
        statusMessage: `Delete failed: ${message}`,
      }).then(),
  },
};
