import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomerRow } from '../../src/api/contract/reseller';
import {
  startResellerWorld,
  type CustomerName,
  type ResellerWorld,
} from './support/reseller-world';

/** GET /reseller/companies/list: the figures of each customer, search, the sorts and paging. */

let w: ResellerWorld;
beforeAll(async () => {
  w = await startResellerWorld();
}, 60_000);
afterAll(() => w?.close());

type Page = {
  data: (Omit<CustomerRow, 'createdAt'> & { createdAt: string })[];
  totalPages: number;
};

async function list(query: Record<string, string | number | boolean> = {}): Promise<Page> {
  const search = new URLSearchParams(
    Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
  );
  const res = await w.call('staff', 'GET', `/reseller/companies/list?${search}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.message).toBe('OK');
  return res.body.data as Page;
}

const names = (page: Page) => page.data.map((row) => row.name);

describe('the figures', () => {
  it("lists the reseller's customers with their counts, VMs' sizes and addresses", async () => {
    const page = await list();

    const row = (name: CustomerName) => ({
      id: w.customers[name],
      name,
      logoUrl: null,
      state: 'active' as const,
      suspendedAt: null,
    });
    expect(page).toEqual({
      data: [
        {
          ...row('Acme 2'),
          admins: 2,
          users: 3,
          vmsRunning: 2,
          vmsTotal: 3,
          // Small 6 + Micro 2 + Large 12 (stopped, still held); the deleted Medium not at all.
          vcpus: 20,
          ramGb: 62,
          publicIps: 2,
          // The world writes VMs without their history: reseller-usage tests count the hours.
          vmHoursThisMonth: 0,
          createdAt: '2026-01-05T09:00:00.000Z',
        },
        {
          ...row('acme 10'),
          admins: 1,
          users: 1,
          vmsRunning: 0,
          vmsTotal: 1,
          vcpus: 4,
          ramGb: 8,
          publicIps: 0,
          vmHoursThisMonth: 0,
          createdAt: '2026-03-01T09:00:00.000Z',
        },
        {
          ...row('Borealis'),
          admins: 1,
          users: 3,
          vmsRunning: 4,
          vmsTotal: 4,
          vcpus: 8,
          ramGb: 16,
          publicIps: 1,
          vmHoursThisMonth: 0,
          createdAt: '2026-02-01T09:00:00.000Z',
        },
        {
          ...row('cobalt'),
          admins: 0,
          users: 0,
          vmsRunning: 0,
          vmsTotal: 0,
          vcpus: 0,
          ramGb: 0,
          publicIps: 0,
          vmHoursThisMonth: 0,
          createdAt: '2026-04-01T09:00:00.000Z',
        },
        {
          ...row('Delta'),
          admins: 0,
          users: 1,
          vmsRunning: 0,
          vmsTotal: 0,
          vcpus: 0,
          ramGb: 0,
          publicIps: 0,
          vmHoursThisMonth: 0,
          createdAt: '2026-01-20T09:00:00.000Z',
        },
      ],
      totalPages: 1,
    });
  });

  it("never shows the staff company or another reseller's customers", async () => {
    const mine = names(await list({ rowsPerPage: 100 }));
    expect(mine).not.toContain('Staff');
    expect(mine).not.toContain('Acme B');

    const res = await w.call('staffB', 'GET', '/reseller/companies/list');
    expect(res.status).toBe(200);
    expect((res.body.data as Page).data.map((row) => [row.id, row.name, row.vcpus])).toEqual([
      [w.otherCustomer, 'Acme B', 16],
    ]);
  });

  it('answers every staff user of the reseller, not only its Admins', async () => {
    const res = await w.call('clerk', 'GET', '/reseller/companies/list');
    expect(res.status).toBe(200);
    expect((res.body.data as Page).data).toHaveLength(5);
  });
});

describe('search', () => {
  it('matches names, whatever their case', async () => {
    expect(names(await list({ search: 'ACME' }))).toEqual(['Acme 2', 'acme 10']);
    expect(names(await list({ search: 'real' }))).toEqual(['Borealis']);
  });

  it('takes % and _ as the characters they are', async () => {
    expect(await list({ search: '%' })).toEqual({ data: [], totalPages: 1 });
    expect(await list({ search: 'acme_' })).toEqual({ data: [], totalPages: 1 });
  });

  it('finds nothing of the staff company or of another reseller', async () => {
    expect(names(await list({ search: 'Staff' }))).toEqual([]);
    expect(names(await list({ search: 'Acme B' }))).toEqual([]);
  });
});

describe('sorts', () => {
  // Ties (users: acme 10 and Delta; VMs: cobalt and Delta) go by id: in creation order here.
  const cases: [string, CustomerName[]][] = [
    ['name', ['Acme 2', 'acme 10', 'Borealis', 'cobalt', 'Delta']],
    ['users', ['cobalt', 'acme 10', 'Delta', 'Acme 2', 'Borealis']],
    ['vms', ['cobalt', 'Delta', 'acme 10', 'Acme 2', 'Borealis']],
    ['createdAt', ['Acme 2', 'Delta', 'Borealis', 'acme 10', 'cobalt']],
  ];

  it.each(cases)('by %s, ascending then descending', async (sortColumn, ascending) => {
    expect(names(await list({ sortColumn }))).toEqual(ascending);
    expect(names(await list({ sortColumn, sortDescending: true }))).toEqual(
      [...ascending].reverse(),
    );
  });

  it('puts names in natural order: Acme 2 before acme 10', async () => {
    expect(names(await list({ sortColumn: 'name', search: 'acme' }))).toEqual([
      'Acme 2',
      'acme 10',
    ]);
  });

  it('refuses a column it does not sort by, naming it', async () => {
    const res = await w.call('staff', 'GET', '/reseller/companies/list?sortColumn=vcpus');
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'sortColumn', message: expect.any(String) }]);
  });
});

describe('paging', () => {
  it('walks every customer once, in order, whatever the sort', async () => {
    for (const [sortColumn, sortDescending] of [
      ['name', false],
      ['users', true],
      ['vms', false],
      ['createdAt', true],
    ] as const) {
      const whole = names(await list({ sortColumn, sortDescending }));
      const pages = await Promise.all(
        [1, 2, 3].map((page) => list({ sortColumn, sortDescending, rowsPerPage: 2, page })),
      );
      expect(pages.map((page) => page.totalPages)).toEqual([3, 3, 3]);
      expect(pages.flatMap(names)).toEqual(whole);
    }
  });

  it('answers an empty page past the last one, with the count of pages', async () => {
    expect(await list({ rowsPerPage: 2, page: 4 })).toEqual({ data: [], totalPages: 3 });
    expect(await list({ rowsPerPage: 1, page: 2, search: 'acme' })).toMatchObject({
      data: [{ name: 'acme 10' }],
      totalPages: 2,
    });
  });
});
