import { tmpdir } from 'node:os';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { brandColorMessages, brandContrast } from '../../src/api/contract/brand-color';
import {
  resellerSettingsMessages,
  type ResellerSettings,
} from '../../src/api/contract/reseller-settings';
import { resellerDomains, resellers } from '../../server/db/schema';
import { loadConfig } from '../../server/config';
import {
  domainErrors,
  domainVerificationValue,
} from '../../server/domain/reseller/settings-domains';
import { eq } from 'drizzle-orm';
import {
  PRODUCT_HOST,
  startDomainWorld,
  type DomainWorld,
  type Who,
} from './support/reseller-domain-world';

/**
 * `GET/PUT /reseller/settings`: the reseller's brand, support e-mail, order forms and domains,
 * read by its staff and changed by their Admins; a new domain proven by its DNS TXT record.
 */

let w: DomainWorld;
beforeAll(async () => {
  w = await startDomainWorld();
}, 60_000);
afterAll(() => w?.close());

const NOT_THERE = { status: 404, body: { data: null, message: 'Not found' } };
const ADMINS_ONLY = {
  status: 403,
  body: { data: null, message: resellerSettingsMessages.adminsOnly },
};

const body = (overrides: Record<string, unknown> = {}) => ({
  brandName: 'Cloudy Cloud',
  logoUrl: 'https://cdn.cloudy.test/logo.svg',
  tabLogoUrl: 'https://cdn.cloudy.test/tab.svg',
  primaryColor: '#0b5394',
  supportEmail: 'Support@Cloudy.test',
  orderUrls: { newCustomer: 'https://cloudy.test/order', accountChanges: '' },
  domains: [],
  ...overrides,
});
const put = (payload: object, who: Who = 'staff') =>
  w.call(who, 'PUT', '/reseller/settings', payload);
const get = (who: Who = 'staff') => w.call(who, 'GET', '/reseller/settings');
const stored = async () => {
  const [row] = await w.db
    .select()
    .from(resellers)
    .where(eq(resellers.id, w.resellers.a.resellerId));
  return row!;
};
const refused = async (payload: object) => {
  const res = await put(payload);
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  return res.body.errors as { field: string; message: string }[];
};
const value = () => domainVerificationValue(w.server.config.appSecret, w.resellers.a.resellerId);

beforeEach(async () => {
  await w.db.delete(resellerDomains);
  w.records.clear();
  w.asked.length = 0;
});

describe('reading the settings', () => {
  it.each(['staff', 'clerk'] as const)('%s reads them, with the TXT record to add', async (who) => {
    const res = await get(who);
    expect(res.status).toBe(200);
    const settings = res.body.data as ResellerSettings;
    expect(settings).toMatchObject({
      supportEmail: (await stored()).email,
      domains: [],
      domainVerification: { recordPrefix: '_launchpad', value: value() },
    });
    expect(settings.domainVerification.value).toMatch(/^launchpad-verification=[0-9a-f]{32}$/);
  });

  it("another reseller's value is its own", async () => {
    const mine = (await get('staff')).body.data.domainVerification.value;
    const theirs = (await get('staffB')).body.data.domainVerification.value;
    expect(theirs).not.toBe(mine);
  });

  it.each(['customerAdmin', 'customerUser', 'misflagged', 'plainAdmin'] as const)(
    '%s is answered as if the path were not there',
    async (who) => {
      expect(await get(who)).toEqual(NOT_THERE);
      expect(await put(body(), who)).toEqual(NOT_THERE);
      expect(await put({ primaryColor: 'red' }, who)).toEqual(NOT_THERE);
    },
  );
});

describe('saving the settings', () => {
  it('an Admin saves every field, and the answer is what GET then reads', async () => {
    await w.addDomain(w.resellers.a.resellerId, 'old.cloudy.test', 'settings');
    const res = await put(body());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toBe(resellerSettingsMessages.saved);
    expect(res.body.data).toEqual({
      brandName: 'Cloudy Cloud',
      logoUrl: 'https://cdn.cloudy.test/logo.svg',
      tabLogoUrl: 'https://cdn.cloudy.test/tab.svg',
      primaryColor: '#0b5394',
      supportEmail: 'support@cloudy.test',
      orderUrls: { newCustomer: 'https://cloudy.test/order', accountChanges: null },
      domains: [],
      domainVerification: { recordPrefix: '_launchpad', value: value() },
    });
    expect((await get()).body.data).toEqual(res.body.data);
    // The support e-mail is the reseller's address, which a suspended customer is told.
    expect((await stored()).email).toBe('support@cloudy.test');
  });

  it("the reseller's customers get its colour with their profile", async () => {
    await put(body({ primaryColor: '#7b2d8e' }));
    const me = await w.call('customerAdmin', 'GET', '/users/me');
    expect(me.body.data).toMatchObject({ primaryColor: '#7b2d8e', resellerName: 'Cloudy Cloud' });
    await put(body({ primaryColor: '' }));
    expect((await w.call('customerAdmin', 'GET', '/users/me')).body.data.primaryColor).toBeNull();
    expect((await w.call('plainAdmin', 'GET', '/users/me')).body.data.primaryColor).toBeNull();
  });

  it('staff who are not Admins get 403, whatever they send, and nothing changes', async () => {
    const before = await stored();
    expect(await put(body({ brandName: 'Clerk Co' }), 'clerk')).toEqual(ADMINS_ONLY);
    expect(await put({ primaryColor: 'red' }, 'clerk')).toEqual(ADMINS_ONLY);
    expect(await stored()).toEqual(before);
  });

  it("an Admin's read API token may not save them", async () => {
    const token = await w.call('staff', 'POST', '/apiTokens/create', {
      name: 'read',
      expiresAt: '2027-01-01T00:00:00Z',
      access: 'read',
    });
    const secret = token.body.data.secret as string;
    expect((await w.call({ secret }, 'GET', '/reseller/settings')).status).toBe(200);
    expect((await w.call({ secret }, 'PUT', '/reseller/settings', body())).status).toBe(403);
  });
});

describe('a 400 names the field', () => {
  it('a colour that is not #rrggbb', async () => {
    expect(await refused(body({ primaryColor: 'blue' }))).toEqual([
      { field: 'primaryColor', message: brandColorMessages.format },
    ]);
  });

  it('a colour too light for white text, with its contrast', async () => {
    const errors = await refused(body({ primaryColor: '#ffcc00' }));
    const figure = brandContrast('#ffcc00');
    expect(errors).toEqual([
      { field: 'primaryColor', message: brandColorMessages.contrast(figure) },
    ]);
    expect(errors[0]!.message).toContain(`this one has ${figure}:1`);
    expect(figure).toBeLessThan(4.5);
  });

  it('a host name that is not one, and one listed twice', async () => {
    expect(await refused(body({ domains: ['ok.cloudy.test', 'https://x.test/'] }))).toEqual([
      { field: 'domains.1', message: resellerSettingsMessages.domainFormat },
    ]);
    expect(await refused(body({ domains: ['a.cloudy.test', 'A.cloudy.test'] }))).toEqual([
      { field: 'domains', message: resellerSettingsMessages.domainDuplicate },
    ]);
  });

  it("the console's own host, and another reseller's", async () => {
    await w.addDomain(w.resellers.b.resellerId, 'console.reseller-b.test');
    w.records.set('_launchpad.console.reseller-b.test', [[value()]]);
    expect(
      await refused(
        body({ domains: ['fine.cloudy.test', PRODUCT_HOST, 'console.reseller-b.test'] }),
      ),
    ).toEqual([
      {
        field: 'domains.0',
        message: resellerSettingsMessages.domainUnverified('_launchpad.fine.cloudy.test', value()),
      },
      { field: 'domains.1', message: resellerSettingsMessages.domainIsProducts },
      { field: 'domains.2', message: resellerSettingsMessages.domainTaken },
    ]);
    // Only the host that passed the rest was looked up.
    expect(w.asked).toEqual(['_launchpad.fine.cloudy.test']);
    expect(await w.db.select().from(resellerDomains)).toHaveLength(1);
  });

  it('a new host without its TXT record, or with another value; none is written', async () => {
    w.records.set('_launchpad.wrong.cloudy.test', [['launchpad-verification=nope']]);
    const before = await stored();
    expect(
      await refused(
        body({ brandName: 'Not saved', domains: ['none.cloudy.test', 'wrong.cloudy.test'] }),
      ),
    ).toEqual([
      {
        field: 'domains.0',
        message: resellerSettingsMessages.domainUnverified('_launchpad.none.cloudy.test', value()),
      },
      {
        field: 'domains.1',
        message: resellerSettingsMessages.domainUnverified('_launchpad.wrong.cloudy.test', value()),
      },
    ]);
    expect(await stored()).toEqual(before);
  });
});

describe('domains', () => {
  it('a new host with its TXT record is added; one kept stays as it was, unchecked', async () => {
    await w.addDomain(w.resellers.a.resellerId, 'imported.cloudy.test', 'import');
    await w.addDomain(w.resellers.a.resellerId, 'dropped.cloudy.test', 'import');
    // Among other records, and split in chunks as DNS keeps long ones.
    w.records.set('_launchpad.console.cloudy.test', [
      ['v=spf1 -all'],
      [value().slice(0, 10), value().slice(10)],
    ]);
    const res = await put(body({ domains: ['Console.Cloudy.test', 'imported.cloudy.test'] }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.domains).toEqual([
      { host: 'console.cloudy.test', source: 'settings' },
      { host: 'imported.cloudy.test', source: 'import' },
    ]);
    expect(w.asked).toEqual(['_launchpad.console.cloudy.test']);

    // Saved again without the record: what it holds is not asked about again.
    w.records.clear();
    w.asked.length = 0;
    expect((await put(body({ domains: ['console.cloudy.test'] }))).status).toBe(200);
    expect(w.asked).toEqual([]);
    expect((await get()).body.data.domains).toEqual([
      { host: 'console.cloudy.test', source: 'settings' },
    ]);
  });

  it('a DNS that cannot be asked proves nothing', async () => {
    w.unreachable.add('_launchpad.x.cloudy.test');
    try {
      expect(await refused(body({ domains: ['x.cloudy.test'] }))).toEqual([
        {
          field: 'domains.0',
          message: resellerSettingsMessages.domainUnverified('_launchpad.x.cloudy.test', value()),
        },
      ]);
    } finally {
      w.unreachable.clear();
    }
  });
});

describe('with RESELLER_DOMAIN_CHECK=off', () => {
  const env = { APP_SECRET: 'x'.repeat(32), DATA_DIR: tmpdir() };

  it('is a setting: dns unless told, and nothing else', () => {
    expect(loadConfig(env).resellerDomainCheck).toBe('dns');
    expect(loadConfig({ ...env, RESELLER_DOMAIN_CHECK: 'off' }).resellerDomainCheck).toBe('off');
    expect(() => loadConfig({ ...env, RESELLER_DOMAIN_CHECK: 'maybe' })).toThrow(
      /RESELLER_DOMAIN_CHECK/,
    );
  });

  it('a new host passes without asking the DNS; the other rules still hold', async () => {
    await w.addDomain(w.resellers.b.resellerId, 'console.reseller-b.test');
    const errors = await domainErrors(
      { db: w.db, config: { ...w.server.config, resellerDomainCheck: 'off' } },
      async (name) => {
        throw new Error(`asked about ${name}`);
      },
      {
        resellerId: w.resellers.a.resellerId,
        hosts: ['console.cloudy.test', 'console.reseller-b.test', PRODUCT_HOST],
        held: new Set(),
      },
    );
    expect(errors).toEqual([
      { field: 'domains.1', message: resellerSettingsMessages.domainTaken },
      { field: 'domains.2', message: resellerSettingsMessages.domainIsProducts },
    ]);
  });
});
