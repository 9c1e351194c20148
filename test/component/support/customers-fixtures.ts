import { limitMessages, type LimitEntry, type LimitUse } from '../../../src/api/contract/limits';
import {
  resellerMessages,
  type CustomerAdmin,
  type CustomerRow,
} from '../../../src/api/contract/reseller';
import type { User } from '../../../src/api/contract/auth';
import { api, fail, http, ok, server } from './msw';
import { signIn, type Recorded } from './teams-fixtures';
import { serveCustomerActivity, serveUsage } from './usage-fixtures';

/** A user of a reseller's staff company (an Admin there), who has customers. */
export const signInReseller = (overrides: Partial<User> = {}) =>
  signIn({ isReseller: true, companyName: 'Skyline Cloud', ...overrides });

/** A customers/list row as the API sends it (the date as an ISO string on the wire). */
export const aCustomer = (
  id: number,
  overrides: Partial<Omit<CustomerRow, 'createdAt' | 'suspendedAt'>> & {
    createdAt?: string;
    suspendedAt?: string | null;
  } = {},
) => ({
  id,
  name: `Customer ${String(id).padStart(2, '0')}`,
  logoUrl: null,
  admins: 1,
  users: id,
  vmsRunning: id % 3,
  vmsTotal: id,
  vcpus: id * 2,
  ramGb: id * 4,
  publicIps: id % 2,
  vmHoursThisMonth: id * 10.25,
  // A day in March for each of the first 28, so that later ids were created later.
  createdAt: `2026-03-${String(((id - 1) % 28) + 1).padStart(2, '0')}T10:00:00.000Z`,
  state: 'active' as CustomerRow['state'],
  suspendedAt: null as string | null,
  ...overrides,
});
type WireCustomer = ReturnType<typeof aCustomer>;

const sortValue: Record<string, (row: WireCustomer) => string | number> = {
  name: (row) => row.name,
  users: (row) => row.users,
  vms: (row) => row.vmsTotal,
  createdAt: (row) => row.createdAt,
};

/**
 * Serves reseller/companies/list from `customers` (25 by default): filtered by name on `search`,
 * sorted and paged as asked; records every query string.
 */
export function serveCustomers(
  customers: WireCustomer[] = Array.from({ length: 25 }, (_, i) => aCustomer(i + 1)),
) {
  const queries: Recorded[] = [];
  server.use(
    http.get(api('reseller/companies/list'), ({ request }) => {
      const params = new URL(request.url).searchParams;
      queries.push(Object.fromEntries(params));
      const search = (params.get('search') ?? '').toLowerCase();
      const key = sortValue[params.get('sortColumn') ?? 'name']!;
      const direction = params.get('sortDescending') === 'true' ? -1 : 1;
      const rows = customers
        .filter((row) => row.name.toLowerCase().includes(search))
        .sort((a, b) => (key(a) < key(b) ? -direction : key(a) > key(b) ? direction : 0));
      const page = Number(params.get('page') ?? 1);
      const size = Number(params.get('rowsPerPage') ?? 10);
      return ok({
        data: rows.slice((page - 1) * size, page * size),
        totalPages: Math.max(1, Math.ceil(rows.length / size)),
      });
    }),
  );
  return { queries, last: () => queries.at(-1) };
}

export const anAdmin = (id: number, overrides: Partial<CustomerAdmin> = {}): CustomerAdmin => ({
  id,
  name: `Admin ${id}`,
  email: `admin${id}@acme.example`,
  activated: true,
  ...overrides,
});

/**
 * Serves reseller/companies/details/{id} for one customer (with no limits unless given); any
 * other id answers 404. Its page's usage and activity cards get nothing used and no events unless
 * a test serves some.
 */
export function serveCustomer(
  customer: WireCustomer & { adminList: CustomerAdmin[]; limits?: LimitUse[] } = {
    ...aCustomer(42, { name: 'Acme Corporation', admins: 2, users: 9, vmsRunning: 3, vmsTotal: 5 }),
    adminList: [
      anAdmin(1, { name: 'Grace Hopper', email: 'grace@acme.example' }),
      anAdmin(2, {
        name: 'new.admin@acme.example',
        email: 'new.admin@acme.example',
        activated: false,
      }),
    ],
  },
) {
  const requested: number[] = [];
  serveUsage({}, customer.id);
  serveCustomerActivity([], customer.id);
  server.use(
    http.get(api('reseller/companies/details/:id'), ({ params }) => {
      requested.push(Number(params.id));
      return Number(params.id) === customer.id
        ? ok({ limits: [], ...customer })
        : fail(404, 'Customer not found');
    }),
  );
  return { customer, requested };
}

type WireDetails = WireCustomer & { adminList: CustomerAdmin[]; limits: LimitUse[] };

/** Acme Corporation (42) as its page reads it: active with no limits unless told otherwise. */
export const acmeDetails = (
  overrides: Parameters<typeof aCustomer>[1] & { limits?: LimitUse[] } = {},
): WireDetails => {
  const { limits = [], ...row } = overrides;
  return {
    ...aCustomer(42, {
      name: 'Acme Corporation',
      admins: 1,
      users: 9,
      vmsRunning: 3,
      vmsTotal: 5,
      ...row,
    }),
    adminList: [anAdmin(1, { name: 'Grace Hopper', email: 'grace@acme.example' })],
    limits,
  };
};

/** When the fixtures' suspensions happen. */
export const SUSPENDED_AT = '2026-04-01T08:30:00.000Z';

/**
 * Serves one customer's details and what changes them, as the server would: suspend, resume
 * (flipping its state) and the limits' PUT (replacing its limits, each with what it `uses` of the
 * resource there, 0 unless told). Records every request (`details`, `suspend 42`, `resume 42`,
 * `limits 42`) and each limits body. A test overrides a path with `server.use` for a failure.
 * The page's usage and activity cards get nothing used and no events unless a test serves some.
 */
export function serveLiveCustomer(
  customer: WireDetails = acmeDetails(),
  uses: Partial<Record<string, number>> = {},
) {
  const calls: string[] = [];
  const limitBodies: unknown[] = [];
  serveUsage({}, customer.id);
  serveCustomerActivity([], customer.id);
  server.use(
    http.get(api('reseller/companies/details/:id'), ({ params }) => {
      calls.push('details');
      return Number(params.id) === customer.id
        ? ok(customer)
        : fail(404, resellerMessages.customerNotFound);
    }),
    http.post(api('reseller/companies/suspend/:id'), ({ params }) => {
      calls.push(`suspend ${String(params.id)}`);
      Object.assign(customer, { state: 'suspended', suspendedAt: SUSPENDED_AT });
      return ok(null, resellerMessages.customerSuspended);
    }),
    http.post(api('reseller/companies/resume/:id'), ({ params }) => {
      calls.push(`resume ${String(params.id)}`);
      Object.assign(customer, { state: 'active', suspendedAt: null });
      return ok(null, resellerMessages.customerResumed);
    }),
    http.put(api('reseller/companies/limits/:id'), async ({ params, request }) => {
      calls.push(`limits ${String(params.id)}`);
      const body = (await request.json()) as { limits: LimitEntry[] };
      limitBodies.push(body);
      customer.limits = body.limits.map((limit) => ({
        ...limit,
        used: uses[`${limit.resource}/${limit.regionId ?? 'all'}`] ?? 0,
      }));
      return ok(null, limitMessages.saved);
    }),
  );
  return { customer, calls, limitBodies };
}
