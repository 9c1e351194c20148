import type { CreateVmBody } from '../../../src/api/contract/vms';
import { startTeamWorld, type TeamWorld, type Who, type WorldOptions } from './team-fixtures';
import { catalogIds, providerIdOf, smallUbuntuOrder } from './vm-fixtures';

/**
 * The team world (a company with an Admin, a Manager, an Operator and a Viewer of team Alpha, an
 * outsider, and another company) plus what VM tests need: catalogue ids by name and VM orders.
 */
export async function startVmWorld(options?: WorldOptions) {
  const world = await startTeamWorld(options);
  const db = world.server.database.db;

  /** A valid order: one Small Ubuntu in Los Angeles at Sharktech, in team Alpha. */
  async function order(overrides: Partial<CreateVmBody> = {}): Promise<CreateVmBody> {
    return {
      ...(await smallUbuntuOrder(db)),
      name: 'web',
      numberOfInstances: 1,
      teamId: world.alphaId,
      allocatePublicIp: true,
      ...overrides,
    };
  }

  /** Orders VMs as `who` and answers their ids (the call must succeed). */
  async function createVms(who: Who, overrides: Partial<CreateVmBody> = {}): Promise<number[]> {
    const res = await world.call(who, 'POST', '/virtualMachines/create', await order(overrides));
    if (res.status !== 200) throw new Error(`create failed: ${JSON.stringify(res)}`);
    return (res.body as { data: { ids: number[] } }).data.ids;
  }

  /** A VM of team Alpha that has finished provisioning. */
  async function runningVm(name = 'web', overrides: Partial<CreateVmBody> = {}) {
    const [id] = await createVms('admin', { name, ...overrides });
    await world.server.finishOperations();
    return id!;
  }

  return {
    ...world,
    catalog: (regionKey?: string, imageKey?: string) => catalogIds(db, regionKey, imageKey),
    providerId: (key: string) => providerIdOf(db, key),
    order,
    createVms,
    runningVm,
  };
}

export type VmWorld = Awaited<ReturnType<typeof startVmWorld>>;
export type { TeamWorld, Who };
