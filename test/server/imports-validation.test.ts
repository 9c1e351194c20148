import { count, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { IMPORT_MAX_ITEMS } from '../../src/api/contract/imports';
import { companies, distributors, resellers, users } from '../../server/db/schema';
import { startTestServer, type TestServer } from './support/harness';
import { createCompany, createUser } from './support/seed';
import { bearer } from './support/sign-in';

const OPERATOR_TOKEN = 'imports-validation-operator-token-42';

let server: TestServer;

const postImport = (kind: string, payload: unknown) =>
  server.app.inject({
    method: 'POST',
    url: `/api/v1/imports/${kind}`,
    headers: bearer(OPERATOR_TOKEN),
    payload: payload as object,
  });

async function rejected(kind: string, items: unknown[]) {
  const res = await postImport(kind, { items });
  expect(res.statusCode, res.body).toBe(400);
  const body = res.json();
  expect(body.data).toBeNull();
  return body.errors as { index: number; field: string; message: string }[];
}

/** Row counts of every table an import writes, and the e-mails sent. */
async function footprint() {
  await server.settled();
  const db = server.database.db;
  const n = async (
    table: typeof users | typeof companies | typeof resellers | typeof distributors,
  ) => (await db.select({ n: count() }).from(table))[0]!.n;
  return {
    distributors: await n(distributors),
    resellers: await n(resellers),
    companies: await n(companies),
    users: await n(users),
    mails: server.outbox().length,
  };
}

const company = (externalId: string, extra: Record<string, unknown> = {}) => ({
  externalId,
  resellerExternalId: 'val-r',
  name: `Company ${externalId}`,
  admin: { email: `admin@${externalId}.test`, firstName: 'Ann', lastName: 'Admin' },
  ...extra,
});

const reseller = (externalId: string, extra: Record<string, unknown> = {}) => ({
  externalId,
  distributerExternalId: 'val-d',
  name: `Reseller ${externalId}`,
  email: `staff@${externalId}.test`,
  ...extra,
});

let before: Awaited<ReturnType<typeof footprint>>;

beforeAll(async () => {
  server = await startTestServer({ OPERATOR_TOKEN });
  const ok = async (kind: string, items: unknown[]) => {
    const res = await postImport(kind, { items });
    if (res.statusCode !== 200) throw new Error(res.body);
  };
  await ok('distributer', [{ externalId: 'val-d', name: 'Val', email: 'd@val.test' }]);
  await ok('reseller', [reseller('val-r')]);
  await ok('company', [company('val-existing')]);
});
beforeEach(async () => {
  before = await footprint();
});
afterAll(() => server.close());

describe('a file with bad items', () => {
  it('writes nothing and names every bad item with its index and field', async () => {
    const errors = await rejected('company', [
      company('val-a'),
      company('val-b', { name: '  ', logoUrl: 'ftp://logo.test/x.png' }),
      company('val-c'),
      company('val-d', { admin: { email: 'not-an-address', firstName: 'D' } }),
      company('val-e', { resellerExternalId: 'nobody' }),
      'not an item',
      company('val-g', { externalId: undefined, resellerExternalId: '' }),
    ]);

    expect(errors).toEqual([
      { index: 1, field: 'name', message: 'Name is required' },
      { index: 1, field: 'logoUrl', message: 'Must be an http(s) URL' },
      { index: 3, field: 'admin.email', message: 'Entered value does not match email format' },
      { index: 3, field: 'admin.lastName', message: 'Last Name is Required' },
      { index: 4, field: 'resellerExternalId', message: 'Unknown reseller' },
      { index: 5, field: 'item', message: 'Invalid input: expected object, received string' },
      { index: 6, field: 'externalId', message: 'externalId is required' },
      { index: 6, field: 'resellerExternalId', message: 'resellerExternalId is required' },
    ]);
    expect(await footprint()).toEqual(before);
  });

  it('answers with the first error as the message', async () => {
    const res = await postImport('distributer', {
      items: [
        { externalId: 'val-ok', name: 'Fine', email: 'fine@val.test' },
        { externalId: 'val-bad', name: 'Bad', email: '' },
      ],
    });

    expect(res.json()).toEqual({
      data: null,
      message: 'items.1.email: Email is required',
      errors: [{ index: 1, field: 'email', message: 'Email is required' }],
    });
    expect(await footprint()).toEqual(before);
  });

  it('refuses an unknown distributor', async () => {
    const errors = await rejected('reseller', [
      reseller('val-r2'),
      reseller('val-r3', { distributerExternalId: 'val-missing' }),
    ]);

    expect(errors).toEqual([
      { index: 1, field: 'distributerExternalId', message: 'Unknown distributer' },
    ]);
    expect(await footprint()).toEqual(before);
  });

  it('refuses the later of two items with the same externalId', async () => {
    const errors = await rejected('distributer', [
      { externalId: 'val-x', name: 'One', email: 'one@val.test' },
      { externalId: 'val-y', name: 'Two', email: 'two@val.test' },
      { externalId: ' val-x ', name: 'Three', email: 'three@val.test' },
      { externalId: 'val-y', name: '' },
    ]);

    expect(errors).toEqual([
      { index: 2, field: 'externalId', message: 'Duplicate externalId in this file' },
      { index: 3, field: 'name', message: 'Name is required' },
      { index: 3, field: 'email', message: 'Email is required' },
      { index: 3, field: 'externalId', message: 'Duplicate externalId in this file' },
    ]);
    expect(await footprint()).toEqual(before);
  });

  it('keeps out externalIds of the form of a staff company', async () => {
    const errors = await rejected('company', [company('reseller:val-r')]);

    expect(errors).toEqual([
      {
        index: 0,
        field: 'externalId',
        message: "externalIds starting with 'reseller:' belong to resellers' staff companies",
      },
    ]);
  });

  it("keeps out externalIds of the form of a company made in a reseller's console", async () => {
    const errors = await rejected('company', [company('customer:val-c')]);

    expect(errors).toEqual([
      {
        index: 0,
        field: 'externalId',
        message:
          "externalIds starting with 'customer:' belong to companies created in a reseller's console",
      },
    ]);
  });
});

describe('a failure while writing', () => {
  // A trigger makes the database refuse the admin of one company, after the companies of the
  // file are already written: the transaction must take them back.
  beforeAll(async () => {
    await server.database.db.execute(
      sql.raw(`
        create function refuse_admin() returns trigger language plpgsql as $$
        begin
          if new.email = 'refused@val.test' then
            raise exception 'refused' using errcode = 'check_violation';
          end if;
          if new.email = 'raced@val.test' then
            raise exception 'raced' using errcode = 'unique_violation';
          end if;
          return new;
        end $$
      `),
    );
    await server.database.db.execute(
      sql.raw(
        'create trigger refuse_admin before insert on users for each row execute function refuse_admin()',
      ),
    );
  });
  afterAll(async () => {
    await server.database.db.execute(sql.raw('drop trigger refuse_admin on users'));
    await server.database.db.execute(sql.raw('drop function refuse_admin()'));
  });

  const admin = (email: string) => ({ admin: { email, firstName: 'R', lastName: 'R' } });

  it('rolls the whole file back', async () => {
    const res = await postImport('company', {
      items: [company('val-w1'), company('val-w2', admin('refused@val.test'))],
    });

    expect({ status: res.statusCode, body: res.json() }).toEqual({
      status: 500,
      body: { data: null, message: 'Internal server error' },
    });
    expect(await footprint()).toEqual(before);
  });

  it('answers 409 when another import took the same record meanwhile', async () => {
    const res = await postImport('company', {
      items: [company('val-w3'), company('val-w4', admin('raced@val.test'))],
    });

    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/run it again/);
    expect(await footprint()).toEqual(before);
  });
});

describe('account e-mails', () => {
  it("refuses an admin e-mail of another company's user", async () => {
    const { company: other } = await createCompany(server.database.db);
    const taken = await createUser(server.database.db, { companyId: other.id });
    before = await footprint();

    const errors = await rejected('company', [
      company('val-new'),
      company('val-taken', {
        admin: { email: taken.email.toUpperCase(), firstName: 'T', lastName: 'T' },
      }),
      // The admin of val-existing cannot become the admin of another company either.
      company('val-other', {
        admin: { email: 'admin@val-existing.test', firstName: 'T', lastName: 'T' },
      }),
    ]);

    expect(errors).toEqual([
      { index: 1, field: 'admin.email', message: 'A user with this email already exists' },
      { index: 2, field: 'admin.email', message: 'A user with this email already exists' },
    ]);
    expect(await footprint()).toEqual(before);
  });

  it('refuses one admin e-mail for two companies of one file', async () => {
    const admin = { email: 'shared@val.test', firstName: 'S', lastName: 'S' };
    const errors = await rejected('company', [
      company('val-s1', { admin }),
      company('val-s2', { admin }),
    ]);

    expect(errors).toEqual([
      {
        index: 1,
        field: 'admin.email',
        message: 'The same email is used by another item of this file',
      },
    ]);
    expect(await footprint()).toEqual(before);
  });

  it("refuses a reseller e-mail that is already another company's user", async () => {
    const errors = await rejected('reseller', [
      reseller('val-r4', { email: 'admin@val-existing.test' }),
      reseller('val-r5', { email: 'staff@val-r.test' }),
      reseller('val-r6', { email: 'one@val.test' }),
      reseller('val-r7', { email: 'one@val.test' }),
    ]);

    expect(errors).toEqual([
      { index: 0, field: 'email', message: 'A user with this email already exists' },
      { index: 1, field: 'email', message: 'A user with this email already exists' },
      {
        index: 3,
        field: 'email',
        message: 'The same email is used by another item of this file',
      },
    ]);
    expect(await footprint()).toEqual(before);
  });

  it('keeps an admin who is already a user of the company, without a new e-mail', async () => {
    const res = await postImport('company', {
      items: [company('val-existing', { name: 'Renamed' })],
    });

    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ created: 0, updated: 1 });
    expect(await footprint()).toEqual(before);
  });
});

describe('the body', () => {
  it.each([
    [{}, 'Invalid input: expected array, received undefined'],
    [{ items: 'x' }, 'Invalid input: expected array, received string'],
    [{ items: [] }, 'items must not be empty'],
    [{ items: Array.from({ length: IMPORT_MAX_ITEMS + 1 }, () => ({})) }, undefined],
  ])('refuses %# naming items', async (payload, message) => {
    const res = await postImport('distributer', payload);

    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ field: 'items', message: message ?? expect.any(String) }]);
  });

  it('answers 404 for an unknown kind', async () => {
    const res = await postImport('customer', { items: [company('val-404')] });

    expect(res.statusCode).toBe(404);
    expect(await footprint()).toEqual(before);
  });

  it(`takes ${IMPORT_MAX_ITEMS} items in a body larger than the API's usual 1 MB`, async () => {
    const items = Array.from({ length: IMPORT_MAX_ITEMS }, (_, i) => ({
      externalId: `bulk-${i}`,
      name: `Bulk distributor ${i} ${'x'.repeat(150)}`,
      email: `bulk-${i}@val.test`,
    }));
    const payload = JSON.stringify({ items });
    expect(payload.length).toBeGreaterThan(1024 * 1024);

    const res = await postImport('distributer', JSON.parse(payload));

    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.created).toBe(IMPORT_MAX_ITEMS);
    expect(res.json().data.items.at(-1).externalId).toBe(`bulk-${IMPORT_MAX_ITEMS - 1}`);
  });

  it('refuses a body over 10 MB', async () => {
    const res = await postImport('distributer', {
      items: [{ externalId: 'big', name: 'x'.repeat(10 * 1024 * 1024), email: 'b@val.test' }],
    });

    expect(res.statusCode).toBe(413);
  });
});

describe('empty optional fields (as CSV exports write them)', () => {
  it('count as absent', async () => {
    const res = await postImport('company', { items: [company('val-blank', { logoUrl: '' })] });
    expect(res.statusCode).toBe(200);
    const resellers = await postImport('reseller', {
      items: [
        reseller('val-blank-r', {
          resellerName: ' ',
          logoUrl: '',
          tabLogoUrl: '',
          orderUrls: { newCustomer: '', accountChanges: '' },
        }),
      ],
    });
    expect(resellers.statusCode).toBe(200);
  });

  it('still refuses a value that is there and wrong', async () => {
    const res = await postImport('company', {
      items: [company('val-bad-logo', { logoUrl: 'ftp://logo' })],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      { index: 0, field: 'logoUrl', message: 'Must be an http(s) URL' },
    ]);
  });
});
