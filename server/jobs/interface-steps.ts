import { eq } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { networks, publicIps, vmInterfaces } from '../db/network-schema';
import { virtualMachines } from '../db/vm-schema';
import { freePublicIps, type NetworkRecord } from '../domain/networks/addresses';
import { ProviderRejection, type PortState } from '../providers/driver';
import { driverKindOf } from '../providers/registry';
import { requireNetworkRef } from './network-steps';
import {
  done,
  failure,
  faultOr,
  type EndContext,
  type OperationStep,
  type StepContext,
} from './steps';

/** A VM interface's operations: plugging its port in and out, and NATing a public address to it. */
interface InterfaceSubject {
  iface: typeof vmInterfaces.$inferSelect;
  network: NetworkRecord;
  serverRef: string | null;
  publicIp: string | null;
}
type InterfaceContext = StepContext<InterfaceSubject>;
type InterfaceStep = OperationStep<InterfaceSubject>;

const loadInterface: InterfaceStep['load'] = async (db, op) => {
  const interfaceId = Number(op.payload.interfaceId);
  const [row] = await db
    .select({
      iface: vmInterfaces,
      network: networks,
      serverRef: virtualMachines.providerRef,
      providerId: virtualMachines.providerId,
      publicIp: publicIps.address,
    })
    .from(vmInterfaces)
    .innerJoin(networks, eq(networks.id, vmInterfaces.networkId))
    .innerJoin(virtualMachines, eq(virtualMachines.id, vmInterfaces.vmId))
    .leftJoin(publicIps, eq(publicIps.interfaceId, vmInterfaces.id))
    .where(eq(vmInterfaces.id, interfaceId));
  if (!row) return undefined;
  const driverKind = await driverKindOf(db, row.providerId);
  if (driverKind === undefined) return undefined;
  const { iface, network, serverRef, publicIp } = row;
  return { subject: { iface, network, serverRef, publicIp }, driverKind };
};

const setInterface = (
  tx: Tx,
  ctx: EndContext<InterfaceSubject>,
  values: Partial<typeof vmInterfaces.$inferInsert>,
) =>
  tx
    .update(vmInterfaces)
    .set({ ...values, updatedAt: ctx.now })
    .where(eq(vmInterfaces.id, ctx.subject.iface.id));

const requirePortRef = (ctx: InterfaceContext) => {
  if (!ctx.subject.iface.portRef) throw new ProviderRejection('The interface has no port');
  return ctx.subject.iface.portRef;
};

/** A public address change is over when the port is no longer busy. */
async function pollAddress(ctx: InterfaceContext, expected: string | null) {
  const port: PortState | null = await ctx.driver.networking.getPort(requirePortRef(ctx));
  if (!port) return failure('The port no longer exists at the provider');
  if (port.busy) return 'wait';
  if (port.publicIp === expected) return done;
  return faultOr(port.fault, 'server', 'The address did not change');
}

export const interfaceSteps: Record<
  'port.attach' | 'port.detach' | 'ip.allocate' | 'ip.release',
  InterfaceStep
> = {
  'port.attach': {
    load: loadInterface,
    async submit(ctx) {
      const { iface, network, serverRef } = ctx.subject;
      if (!serverRef) throw new ProviderRejection('The VM has no server at the provider');
      const networkRef = await requireNetworkRef(ctx.db, network);
      const { ref } = await ctx.driver.networking.attachPort(
        serverRef,
        { networkRef, fixedIp: iface.privateIp, macAddress: iface.macAddress },
        ctx.op.clientToken,
      );
      return async (tx) => {
        await tx.update(vmInterfaces).set({ portRef: ref }).where(eq(vmInterfaces.id, iface.id));
      };
    },
    async poll(ctx) {
      const port = await ctx.driver.networking.getPort(requirePortRef(ctx));
      if (!port) return failure('The port no longer exists at the provider');
      if (port.status === 'attaching') return 'wait';
      if (port.status === 'active') return done;
      return faultOr(port.fault, 'server', `The port is ${port.status}`);
    },
    succeeded: (tx, ctx) => setInterface(tx, ctx, { status: 'Active', statusMessage: null }).then(),
    // The interface stays, in Error, until it is removed: the user sees what happened.
    failed: (tx, ctx, message) =>
      setInterface(tx, ctx, { status: 'Error', statusMessage: message }).then(),
  },
  'port.detach': {
    load: loadInterface,
    async submit(ctx) {
      // A port that never got attached (or is gone already) has nothing to unplug.
      const ref = ctx.subject.iface.portRef;
      const { networking } = ctx.driver;
      const port = ref ? await networking.getPort(ref) : null;
      if (ref && port && port.status !== 'error') {
        await networking.detachPort(ref, ctx.op.clientToken);
      }
    },
    async poll(ctx) {
      const ref = ctx.subject.iface.portRef;
      const port = ref ? await ctx.driver.networking.getPort(ref) : null;
      if (!port || port.status === 'error') return done;
      if (port.status === 'detaching') return 'wait';
      return faultOr(port.fault, 'server', `The port is ${port.status}`);
    },
    async succeeded(tx, ctx) {
      await freePublicIps(tx, { interfaceIds: [ctx.subject.iface.id] }, ctx.now);
      await tx.delete(vmInterfaces).where(eq(vmInterfaces.id, ctx.subject.iface.id));
    },
    failed: (tx, ctx, message) =>
      setInterface(tx, ctx, {
        status: 'Active',
        statusMessage: `Removal failed: ${message}`,
      }).then(),
  },
  'ip.allocate': {
    load: loadInterface,
    submit: (ctx) =>
      ctx.driver.networking.allocatePublicIp(
        requirePortRef(ctx),
        String(ctx.op.payload.address),
        ctx.op.clientToken,
      ),
    poll: (ctx) => pollAddress(ctx, String(ctx.op.payload.address)),
    async succeeded(tx, ctx) {
      await tx
        .update(publicIps)
        .set({ status: 'Active' })
        .where(eq(publicIps.interfaceId, ctx.subject.iface.id));
      await setInterface(tx, ctx, { statusMessage: null });
    },
    async failed(tx, ctx, message) {
      await freePublicIps(tx, { interfaceIds: [ctx.subject.iface.id] }, ctx.now);
      await setInterface(tx, ctx, { statusMessage: `Public IP allocation failed: ${message}` });
    },
  },
  'ip.release': {
    load: loadInterface,
    submit: (ctx) => ctx.driver.networking.releasePublicIp(requirePortRef(ctx), ctx.op.clientToken),
    poll: (ctx) => pollAddress(ctx, null),
    async succeeded(tx, ctx) {
      await freePublicIps(tx, { interfaceIds: [ctx.subject.iface.id] }, ctx.now);
      await setInterface(tx, ctx, { statusMessage: null });
    },
    async failed(tx, ctx, message) {
      await tx
        .update(publicIps)
        .set({ status: 'Active' })
        .where(eq(publicIps.interfaceId, ctx.subject.iface.id));
      await setInterface(tx, ctx, { statusMessage: `Public IP release failed: ${message}` });
    },
  },
};
