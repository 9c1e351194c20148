import { and, desc, eq, isNull } from 'drizzle-orm';
import { providerOffers, providers, regions } from '../db/catalog-schema';
import type { Db, Tx } from '../db/client';
import { networks, publicIps } from '../db/network-schema';
import { freePublicIps, type NetworkRecord } from '../domain/networks/addresses';
import { ProviderRejection, type NetworkSpec } from '../providers/driver';
import { operations } from './schema';
import { done, failure, NotReady, type OperationStep, type StepContext } from './steps';

/** A network's operations: building, changing and removing it at the provider. */

interface NetworkSubject {
  network: NetworkRecord;
  regionKey: string;
  snatIp: string | null;
}

/** The network as the engine gets it. */
const networkSpec = (subject: NetworkSubject): NetworkSpec => {
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

/** Whether the network's last create operation has failed (so it will not exist unless ordered again). */
export async function networkCreateFailed(db: Db | Tx, networkId: number) {
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
  const state = await ctx.driver.networking.getNetwork(ctx.subject.network.providerRef!);
  if (!state) return failure('The network no longer exists at the provider');
  if (state.status !== 'active') return 'wait';
  return done;
};

export const networkSteps: Record<
  'network.create' | 'network.update' | 'network.delete',
  OperationStep<NetworkSubject>
> = {
  'network.create': {
    load: loadNetwork,
    async submit(ctx) {
      const { ref } = await ctx.driver.networking.createNetwork(
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
    // The VMs waiting for the network fail through `requireNetworkRef`; the next VM ordered for a
    // default network orders it again (`ensureDefaultNetwork`).
    failed: async () => {},
  },
  'network.update': {
    load: loadNetwork,
    async submit(ctx) {
      const ref = await requireNetworkRef(ctx.db, ctx.subject.network);
      const { networking } = ctx.driver;
      // An earlier change is still being applied: this one waits its turn.
      const state = await networking.getNetwork(ref);
      if (state && state.status !== 'active') throw new NotReady(`The network is ${state.status}`);
      await networking.updateNetwork(ref, networkSpec(ctx.subject), ctx.op.clientToken);
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
      const { networking } = ctx.driver;
      if (await networking.getNetwork(ref)) await networking.deleteNetwork(ref, ctx.op.clientToken);
    },
    async poll(ctx) {
      const ref = ctx.subject.network.providerRef;
      const state = ref ? await ctx.driver.networking.getNetwork(ref) : null;
      return state ? 'wait' : done;
    },
    succeeded: (tx, ctx) => freePublicIps(tx, { networkId: ctx.subject.network.id }, ctx.now),
    // The network comes back into the list, so that the user sees it still exists; no longer the
    // default one if another has been made meanwhile.
    async failed(tx, ctx) {
      const { network } = ctx.subject;
      const [otherDefault] = network.isDefault
        ? await tx
            .select({ id: networks.id })
            .from(networks)
            .where(
              and(
                eq(networks.companyId, network.companyId),
                eq(networks.regionId, network.regionId),
                eq(networks.isDefault, true),
                isNull(networks.deletedAt),
              ),
            )
        : [];
      await tx
        .update(networks)
        .set({ deletedAt: null, isDefault: network.isDefault && !otherDefault, updatedAt: ctx.now })
        .where(eq(networks.id, network.id));
    },
  },
};
