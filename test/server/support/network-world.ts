import type { CreateNetworkBody } from '../../../src/api/contract/networks';
import type { WorldOptions } from './team-fixtures';
import { startVmWorld, type VmWorld, type Who } from './vm-world';

/** The VM world plus network orders. */
export async function startNetworkWorld(options?: WorldOptions) {
  const world = await startVmWorld(options);
  const { regionId } = await world.catalog();

  /** A valid standard network in Los Angeles. */
  const standard = (overrides: Partial<CreateNetworkBody> = {}): CreateNetworkBody => ({
    name: 'app net',
    description: 'The application tier',
    regionId,
    cidrBlock: '10.20.0.0/24',
    networkType: 'standard',
    dhcpStartAddress: '10.20.0.10',
    dhcpEndAddress: '10.20.0.200',
    defaultRoute: '10.20.0.1',
    dnsServers: '1.1.1.1, 8.8.8.8',
    ...overrides,
  });
  const custom = (overrides: Partial<CreateNetworkBody> = {}): CreateNetworkBody => ({
    name: 'storage l2',
    regionId,
    cidrBlock: '10.30.0.0/24',
    networkType: 'custom',
    ...overrides,
  });

  async function createNetwork(body: CreateNetworkBody, who: Who = 'admin'): Promise<number> {
    const res = await world.call(who, 'POST', '/networks/create', body);
    if (res.status !== 200) throw new Error(`create network failed: ${JSON.stringify(res)}`);
    return (res.body as { data: { id: number } }).data.id;
  }

  /** A VM that has finished provisioning and is stopped (interfaces change only then). */
  async function stoppedVm(name: string) {
    const id = await world.runningVm(name);
    await world.call('admin', 'POST', `/virtualMachines/stop/${id}`);
    await world.server.finishOperations();
    return id;
  }

  return { ...world, regionId, standard, custom, createNetwork, stoppedVm };
}

export type NetworkWorld = Awaited<ReturnType<typeof startNetworkWorld>>;
export type { VmWorld, Who };
