import { eq, isNull } from 'drizzle-orm';
import { expect } from 'vitest';
import type { LimitEntry, LimitResource } from '../../../src/api/contract/limits';
import type { CreateVmBody } from '../../../src/api/contract/vms';
import { networks } from '../../../server/db/network-schema';
import { companies, distributors, resellers } from '../../../server/db/schema';
import { virtualMachines } from '../../../server/db/vm-schema';
import { QUICK_SIM_TIMINGS } from './harness';
import { startNetworkWorld } from './network-world';
import { createUser } from './seed';
import { bearer, signIn } from './sign-in';

/**
 * The network world's two companies made customers of one reseller, with the reseller's staff
 * (who sets each company's limits) and the operator (who sets the reseller's, by import). Company
 * A's Admin orders in its team Alpha; company B's Admin orders without a team. Sizes (cpu/ram):
 * 1 Micro 2/4, 2 Extra Small 4/8, 3 Small 6/10, 4 Medium 8/12, 5 Large 12/48; Northwind offers
 * Micro to Large in Los Angeles, Sharktech every size in New York.
 */

export const OPERATOR_TOKEN = 'limits-operator-token-0123456789abcdef';
export const SIZE = { micro: 1, extraSmall: 2, small: 3, medium: 4, large: 5 } as const;
export type Size = keyof typeof SIZE;
export type Company = 'a' | 'b';
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export const refused = (message: string) => ({ status: 409, body: { data: null, message } });

export async function startLimitsWorld(env: Record<string, string> = {}) {
  // Its tests wait for the orders they place to be built, never look at one half-way.
  const w = await startNetworkWorld({
    env: { OPERATOR_TOKEN, ...env },
    simTimings: QUICK_SIM_TIMINGS,
  });
  const db = w.server.database.db;
  const [own] = await db
    .select({ reseller: resellers, distributor: distributors })
    .from(companies)
    .innerJoin(resellers, eq(resellers.id, companies.resellerId))
    .innerJoin(distributors, eq(distributors.id, resellers.distributorId))
    .where(eq(companies.id, w.companyId));
  const { reseller, distributor } = own!;
  await db
    .update(companies)
    .set({ resellerId: reseller.id })
    .where(eq(companies.id, w.other.companyId));
  // The staff company as the reseller import makes it, its Admin at the reseller's address.
  const [staffCompany] = await db
    .insert(companies)
    .values({
      externalId: `reseller:${reseller.externalId}`,
      resellerId: reseller.id,
      name: 'Staff',
      isResellerStaff: true,
    })
    .returning({ id: companies.id });
  await createUser(db, {
    companyId: staffCompany!.id,
    email: reseller.email,
    isAdmin: true,
    isReseller: true,
  });
  await createUser(db, { companyId: w.other.companyId, email: 'boss@b.test', isAdmin: true });
  const tokens = {
    staff: (await signIn(w.server, reseller.email)).token,
    b: (await signIn(w.server, 'boss@b.test')).token,
  };

  const companyIds: Record<Company, number> = { a: w.companyId, b: w.other.companyId };
  const { regionId: la } = await w.catalog();
  const ny = await w.catalog('us-nyc-1');
  const providers = {
    northwind: await w.providerId('sim-northwind'),
    sharktech: await w.providerId('sim-sharktech'),
  };

  async function as(secret: string, method: Method, url: string, payload?: object) {
    const res = await w.server.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: bearer(secret),
      ...(payload ? { payload } : {}),
    });
    return { status: res.statusCode, body: res.json() };
  }
  /** One call as the company's Admin. */
  const call = (company: Company, method: Method, url: string, payload?: object) =>
    company === 'a' ? w.call('admin', method, url, payload) : as(tokens.b, method, url, payload);
  const asStaff = (method: Method, url: string, payload?: object) =>
    as(tokens.staff, method, url, payload);

  /** An order of VMs of one size, in Los Angeles at Northwind (or New York at Sharktech). */
  async function order(
    company: Company,
    size: Size,
    overrides: Partial<CreateVmBody> & { region?: 'la' | 'ny' } = {},
  ): Promise<CreateVmBody> {
    const { region = 'la', ...rest } = overrides;
    return w.order({
      name: `${size.toLowerCase()}-${company}`,
      configurationId: SIZE[size],
      providerId: region === 'la' ? providers.northwind : providers.sharktech,
      ...(region === 'ny' ? ny : {}),
      allocatePublicIp: false,
      teamId: company === 'a' ? w.alphaId : null,
      ...rest,
    });
  }
  const create = async (
    company: Company,
    size: Size,
    overrides: Parameters<typeof order>[2] = {},
  ) => call(company, 'POST', '/virtualMachines/create', await order(company, size, overrides));

  /** VMs the company holds, built and running; their ids. */
  async function hold(company: Company, size: Size, overrides: Parameters<typeof order>[2] = {}) {
    const res = await create(company, size, overrides);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await w.server.finishOperations();
    return (res.body as { data: { ids: number[] } }).data.ids;
  }

  /** The reseller's staff sets the company's limits (all of them, replacing the last). */
  async function setCompanyLimits(company: Company, limits: LimitEntry[]) {
    const res = await asStaff('PUT', `/reseller/companies/limits/${companyIds[company]}`, {
      limits,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }

  /** The operator's reseller import, with the reseller as it is and these limits. */
  const importReseller = (limits?: unknown) =>
    w.server.app.inject({
      method: 'POST',
      url: '/api/v1/imports/reseller',
      headers: bearer(OPERATOR_TOKEN),
      payload: {
        items: [
          {
            externalId: reseller.externalId,
            distributerExternalId: distributor.externalId,
            name: reseller.name,
            email: reseller.email,
            ...(limits === undefined ? {} : { limits }),
          },
        ],
      },
    });
  async function setResellerLimits(limits: LimitEntry[]) {
    const res = await importReseller(limits);
    expect(res.statusCode, res.body).toBe(200);
  }

  /** A limit, for short. */
  const limit = (resource: LimitResource, regionId: number | null, max: number): LimitEntry => ({
    resource,
    regionId,
    max,
  });

  /**
   * Every live VM and network deleted by its company's Admin and every limit lifted, for the next
   * test to start from nothing.
   */
  async function reset() {
    w.server.sim.faults.clear();
    await w.server.finishOperations();
    // Each by its company's Admin: the staff company's too, whose staff may order as well.
    const ownerCall = (companyId: number, method: Method, url: string) =>
      companyId === staffCompany!.id
        ? asStaff(method, url)
        : call(companyId === w.companyId ? 'a' : 'b', method, url);
    const liveVms = await db
      .select({ id: virtualMachines.id, companyId: virtualMachines.companyId })
      .from(virtualMachines)
      .where(isNull(virtualMachines.deletedAt));
    for (const vm of liveVms) {
      const res = await ownerCall(vm.companyId, 'DELETE', `/virtualMachines/delete/${vm.id}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    await w.server.finishOperations();
    const liveNetworks = await db
      .select({ id: networks.id, companyId: networks.companyId })
      .from(networks)
      .where(isNull(networks.deletedAt));
    for (const network of liveNetworks) {
      const res = await ownerCall(network.companyId, 'DELETE', `/networks/delete/${network.id}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    await w.server.finishOperations();
    await setCompanyLimits('a', []);
    await setCompanyLimits('b', []);
    await setResellerLimits([]);
  }

  return {
    ...w,
    db,
    reseller,
    distributor,
    /** One call as a user of company A's team world (`admin`, `viewer`…). */
    callAs: w.call,
    staffCompanyId: staffCompany!.id,
    companyIds,
    regions: { la, ny: ny.regionId },
    call,
    asStaff,
    order,
    create,
    hold,
    setCompanyLimits,
    importReseller,
    setResellerLimits,
    limit,
    reset,
  };
}

export type LimitsWorld = Awaited<ReturnType<typeof startLimitsWorld>>;
