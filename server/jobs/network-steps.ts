import { and, desc, eq } from 'drizzle-orm';
import { providerOffers, providers, regions } from '../db/catalog-schema';
import type { Db, Tx } from '../db/client';
import { networks, publicIps, vmInterfaces } from '../db/network-schema';
import { virtualMachines } from '../db/vm-schema';
import { freePublicIps, type NetworkRecord } from '../domain/networks/addresses';
import { ProviderRejection, type NetworkSpec, type PortState } from '../providers/driver';
import type { NetworkOperationKind } from './operations';
import { operations } from './schema';
import { done, failure, NotReady, type OperationStep, type StepContext } from './steps';

// ---------------------------------------------------------------------------------------------
// Networks

interface NetworkSubject {
  network: NetworkRecord;
  regionKey: string;
  snatIp: string | null;
}

/** The network as the engine gets it. */
export const networkSpec = (subject: NetworkSubject): NetworkSpec => {
  const { network } = subject;
  return {
    name: network.name,
    cidr: network.cidrBlock,
    gatewayIp: network.gatewayIp,
    dhcp:
      network.dhcpServerEnabled && network.dhcpStartAddress && network.dhcpEndAddress
        ? { start: network.dhcpStartAddress, end: network.dhcpEndAddress }
        : null,
    dnsServers: network.serveDnsServersEnabled ? network.dnsServers : [],
    defaultRoute: network.defaultRouteEnabled ? network.defaultRoute : null,
    snatIp: network.snatEnabled ? subject.snatIp : null,
  };
};

/** The driver of a region: the one of the providers that serve it. */
async function regionDriver(db: Db, regionId: number) {
  const [row] = await db
    .select({ driver: providers.driver, regionKey: regions.key })
    .from(providerOffers)
    .innerJoin(providers, eq(providers.id, providerOffers.providerId))
    .innerJoin(regions, eq(regions.id, providerOffers.regionId))
    .where(eq(providerOffers.regionId, regionId))
    .limit(1);
  return row;
}

const loadNetwork: OperationStep<NetworkSubject>['load'] = async (db, op) => {
  if (op.networkId === null) return undefined;
  const [row] = await db
    .select({ network: networks, snatIp: publicIps.address })
    .from(networks)
    .leftJoin(publicIps, eq(publicIps.networkId, networks.id))
    .where(eq(networks.id, op.networkId));
  const region = row && (await regionDriver(db, row.network.regionId));
  return (
    region && {
      subject: { network: row.network, regionKey: region.regionKey, snatIp: row.snatIp },
      driverKind: region.driver,
    }
  );
};

/** Whether the network's create operation has failed for good (so it will never exist). */
async function networkCreateFailed(db: Db, networkId: number) {
  const [op] = await db
    .select({ status: operations.status })
    .from(operations)
    .where(and(eq(operations.networkId, networkId), eq(operations.kind, 'network.create')))
    .orderBy(desc(operations.id))
    .limit(1);
  return op?.status === 'failed';
}

/** The network's ref at the provider; waits while it is being built, refuses if it never will be. */
export async function requireNetworkRef(db: Db, network: NetworkRecord): Promise<string> {
  if (network.providerRef) return network.providerRef;
  if (await networkCreateFailed(db, network.id)) {
    throw new ProviderRejection(`The network ${network.name} could not be built`);
  }
  throw new NotReady('The network is still being built');
}

type NetworkContext = StepContext<NetworkSubject>;
const pollNetwork = async (ctx: NetworkContext) => {
  const state = await ctx.driver.getNetwork(ctx.subject.network.providerRef!);
  if (!state) return failure('The network no longer exists at the provider');
  if (state.status !== 'active') return 'wait';
  return done;
};

const networkSteps: Record<
  'network.create' | 'network.update' | 'network.delete',
  OperationStep<NetworkSubject>
> = {
  'network.create': {
    load: loadNetwork,
    async submit(ctx) {
      const { ref } = await ctx.driver.createNetwork(
        ctx.subject.regionKey,
        networkSpec(ctx.subject),
        ctx.op.clientToken,
      );
      return async (tx) => {
        await tx
          .update(networks)
          .set({ providerRef: ref })
          .where(eq(networks.id, ctx.subject.network.id));
      };
    },
    poll: pollNetwork,
    succeeded: async () => {},
    // VMs waiting for the network hear of it from `requireNetworkRef`.
    failed: async () => {},
  },
  'network.update': {
    load: loadNetwork,
    async submit(ctx) {
      const ref = await requireNetworkRef(ctx.db, ctx.subject.network);
      await ctx.driver.updateNetwork(ref, networkSpec(ctx.subject), ctx.op.clientToken);
    },
    poll: pollNetwork,
    succeeded: async () => {},
    failed: async () => {},
  },
  'network.delete': {
    load: loadNetwork,
    async submit(ctx) {
      const { network } = ctx.subject;
      if (!network.providerRef && (await networkCreateFailed(ctx.db, network.id))) return;
      const ref = await requireNetworkRef(ctx.db, network);
      if (await ctx.driver.getNetwork(ref)) await ctx.driver.deleteNetwork(ref, ctx.op.clientToken);
    },
    async poll(ctx) {
      const ref = ctx.subject.network.providerRef;
      const state = ref ? await ctx.driver.getNetwork(ref) : null;
      return state ? 'wait' : done;
    },
    succeeded: (tx, ctx) => freePublicIps(tx, { networkId: ctx.subject.network.id }),
    // The network comes back into the list, so that the user sees it still exists.
    async failed(tx, ctx) {
      await tx
        .update(networks)
        .set({ deletedAt: null, updatedAt: ctx.now })
        .where(eq(networks.id, ctx.subject.network.id));
    },
  },
};

// ---------------------------------------------------------------------------------------------
// Interfaces (ports) and their public addresses

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
  const [provider] = await db
    .select({ driver: providers.driver })
    .from(providers)
    .where(eq(providers.id, row.providerId));
  return (
    provider && {
      subject: {
        iface: row.iface,
        network: row.network,
        serverRef: row.serverRef,
        publicIp: row.publicIp,
      },
      driverKind: provider.driver,
    }
  );
};

const setInterface = (
  tx: Tx,
  ctx: InterfaceContext,
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
  const port: PortState | null = await ctx.driver.getPort(requirePortRef(ctx));
  if (!port) return failure('The port no longer exists at the provider');
  if (port.busy) return 'wait';
  if (port.publicIp === expected) return done;
  return failure(port.fault ?? 'The address did not change');
}

const interfaceSteps: Record<
  'port.attach' | 'port.detach' | 'ip.allocate' | 'ip.release',
  InterfaceStep
> = {
  'port.attach': {
    load: loadInterface,
    async submit(ctx) {
      const { iface, network, serverRef } = ctx.subject;
      if (!serverRef) throw new ProviderRejection('The VM has no server at the provider');
      const networkRef = await requireNetworkRef(ctx.db, network);
      const { ref } = await ctx.driver.attachPort(
        serverRef,
        { networkRef, fixedIp: iface.privateIp, macAddress: iface.macAddress },
        ctx.op.clientToken,
      );
      return async (tx) => {
        await tx.update(vmInterfaces).set({ portRef: ref }).where(eq(vmInterfaces.id, iface.id));
      };
    },
    async poll(ctx) {
      const port = await ctx.driver.getPort(requirePortRef(ctx));
      if (!port) return failure('The port no longer exists at the provider');
      if (port.status === 'attaching') return 'wait';
      if (port.status === 'active') return done;
      return failure(port.fault ?? `The port is ${port.status}`);
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
      const port = ref ? await ctx.driver.getPort(ref) : null;
      if (ref && port && port.status !== 'error') {
        await ctx.driver.detachPort(ref, ctx.op.clientToken);
      }
    },
    async poll(ctx) {
      const ref = ctx.subject.iface.portRef;
      const port = ref ? await ctx.driver.getPort(ref) : null;
      if (!port || port.status === 'error') return done;
      if (port.status === 'detaching') return 'wait';
      return failure(port.fault ?? `The port is ${port.status}`);
    },
    async succeeded(tx, ctx) {
      await freePublicIps(tx, { interfaceIds: [ctx.subject.iface.id] });
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
      ctx.driver.allocatePublicIp(
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
      await freePublicIps(tx, { interfaceIds: [ctx.subject.iface.id] });
      await setInterface(tx, ctx, { statusMessage: `Public IP allocation failed: ${message}` });
    },
  },
  'ip.release': {
    load: loadInterface,
    submit: (ctx) => ctx.driver.releasePublicIp(requirePortRef(ctx), ctx.op.clientToken),
    poll: (ctx) => pollAddress(ctx, null),
    async succeeded(tx, ctx) {
      await freePublicIps(tx, { interfaceIds: [ctx.subject.iface.id] });
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

export const networkOperationSteps: Record<NetworkOperationKind, OperationStep<never>> = {
  ...(networkSteps as Record<keyof typeof networkSteps, OperationStep<never>>),
  ...(interfaceSteps as Record<keyof typeof interfaceSteps, OperationStep<never>>),
};
