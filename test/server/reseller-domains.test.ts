import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { brandColorMessages, brandContrast } from '../../src/api/contract/brand-color';
import { resellerSettingsMessages } from '../../src/api/contract/reseller-settings';
import { resellerDomains, resellers } from '../../server/db/schema';
import { mailSiteOf } from '../../server/domain/reseller/settings-mail-site';
import { linkIn, parseMail } from './support/mail';
import {
  OPERATOR_TOKEN,
  people,
  PRODUCT_HOST,
  startDomainWorld,
  type DomainWorld,
} from './support/reseller-domain-world';
import { bearer, logIn } from './support/sign-in';

/**
 * A reseller's domains set by the operator's import (no DNS check), and the mail its customers
 * get: links on its domain (the one they asked on, else its first by name), signed with its name.
 * The product's own customers, whose reseller has no domain, get what they always got.
 */

let w: DomainWorld;
beforeAll(async () => {
  w = await startDomainWorld();
}, 60_000);
afterAll(() => w?.close());

const importResellers = (items: unknown[]) =>
  w.server.app.inject({
    method: 'POST',
    url: '/api/v1/imports/reseller',
    headers: bearer(OPERATOR_TOKEN),
    payload: { items },
  });
const DISTRIBUTOR = 'dist-domains';
const reseller = (externalId: string, extra: Record<string, unknown> = {}) => ({
  externalId,
  distributerExternalId: DISTRIBUTOR,
  name: `Reseller ${externalId}`,
  email: `staff@${externalId}.test`,
  ...extra,
});
const domainsOf = async (externalId: string) => {
  const rows = await w.db
    .select({ host: resellerDomains.host, source: resellerDomains.source })
    .from(resellerDomains)
    .innerJoin(resellers, eq(resellers.id, resellerDomains.resellerId))
    .where(eq(resellers.externalId, externalId))
    .orderBy(resellerDomains.host);
  return rows;
};
const colourOf = async (externalId: string) =>
  (
    await w.db
      .select({ primaryColor: resellers.primaryColor })
      .from(resellers)
      .where(eq(resellers.externalId, externalId))
  )[0]?.primaryColor;

describe('the reseller import', () => {
  beforeAll(async () => {
    const res = await w.server.app.inject({
      method: 'POST',
      url: '/api/v1/imports/distributer',
      headers: bearer(OPERATOR_TOKEN),
      payload: { items: [{ externalId: DISTRIBUTOR, name: 'Dist', email: 'd@dist.test' }] },
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('sets the primary colour and domains, trusted as given', async () => {
    const res = await importResellers([
      reseller('skyline', {
        primaryColor: '#0B7285',
        domains: ['Console.Skyline.test', 'panel.skyline.test'],
      }),
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(await colourOf('skyline')).toBe('#0B7285');
    expect(await domainsOf('skyline')).toEqual([
      { host: 'console.skyline.test', source: 'import' },
      { host: 'panel.skyline.test', source: 'import' },
    ]);
    expect(w.asked).toEqual([]);
    // The same file again changes nothing.
    const again = await importResellers([
      reseller('skyline', {
        primaryColor: '#0B7285',
        domains: ['console.skyline.test', 'panel.skyline.test'],
      }),
    ]);
    expect(again.json().data).toMatchObject({ created: 0, updated: 0 });
  });

  it("replaces its imported domains when present, and keeps those of the reseller's settings", async () => {
    const [row] = await w.db
      .select({ id: resellers.id })
      .from(resellers)
      .where(eq(resellers.externalId, 'skyline'));
    await w.addDomain(row!.id, 'own.skyline.test', 'settings');

    let res = await importResellers([reseller('skyline', { domains: ['new.skyline.test'] })]);
    expect(res.json().data).toMatchObject({ updated: 1 });
    expect(await domainsOf('skyline')).toEqual([
      { host: 'new.skyline.test', source: 'import' },
      { host: 'own.skyline.test', source: 'settings' },
    ]);
    // Absent (or null): as they are; the colour too.
    res = await importResellers([reseller('skyline', { domains: null })]);
    expect(res.statusCode).toBe(200);
    expect(await domainsOf('skyline')).toHaveLength(2);
    expect(await colourOf('skyline')).toBe('#0B7285');
    // `[]`: none imported; null colour: the product's.
    res = await importResellers([reseller('skyline', { domains: [], primaryColor: null })]);
    expect(res.statusCode).toBe(200);
    expect(await domainsOf('skyline')).toEqual([{ host: 'own.skyline.test', source: 'settings' }]);
    expect(await colourOf('skyline')).toBeNull();
  });

  it("refuses another reseller's host, the console's own, a host two items claim, and a dim colour", async () => {
    await w.addDomain(w.resellers.b.resellerId, 'taken.reseller-b.test');
    const res = await importResellers([
      reseller('first', { domains: ['fine.first.test', 'taken.reseller-b.test'] }),
      reseller('second', { domains: [PRODUCT_HOST, 'fine.first.test'] }),
      reseller('third', { primaryColor: '#ffff00' }),
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      { index: 0, field: 'domains.1', message: resellerSettingsMessages.domainTaken },
      { index: 1, field: 'domains.0', message: resellerSettingsMessages.domainIsProducts },
      { index: 1, field: 'domains.1', message: resellerSettingsMessages.domainTaken },
      {
        index: 2,
        field: 'primaryColor',
        message: brandColorMessages.contrast(brandContrast('#ffff00')),
      },
    ]);
    expect(res.json().message).toBe(`items.0.domains.1: ${resellerSettingsMessages.domainTaken}`);
    expect(await domainsOf('first')).toEqual([]);
  });
});

describe('mail to a reseller with domains', () => {
  beforeAll(async () => {
    // Reseller A ("Cloudy"): two domains, the first by name is a.cloudy.test.
    await w.addDomain(w.resellers.a.resellerId, 'b.cloudy.test');
    await w.addDomain(w.resellers.a.resellerId, 'a.cloudy.test', 'settings');
    await w.addDomain(w.resellers.b.resellerId, 'console.reseller-b.test');
  });
  beforeEach(() => w.server.settled());

  /** The raw message's From header and its parsed text. */
  const lastMail = (to: string) => {
    const raw = w.server
      .outbox()
      .filter((m) => parseMail(m).to === to)
      .at(-1);
    if (!raw) throw new Error(`no mail to ${to}`);
    const from = raw.match(/^From:\s*(.*)$/im)?.[1]?.trim();
    return { from, mail: parseMail(raw) };
  };
  const forgot = async (email: string, host: string) => {
    const res = await w.server.app.inject({
      method: 'POST',
      url: '/api/v1/users/forgotPassword',
      headers: { host },
      payload: { email },
    });
    expect(res.statusCode).toBe(200);
    await w.server.settled();
    return lastMail(email);
  };

  it('the reset link is on the domain it was asked on, signed with the brand name', async () => {
    const { from, mail } = await forgot(people.customerAdmin, 'b.cloudy.test:8080');
    const link = linkIn(mail);
    expect(link.origin).toBe('http://b.cloudy.test');
    expect(link.pathname).toBe('/resetPassword');
    expect(link.searchParams.get('token')).toBeTruthy();
    expect(from).toBe('Cloudy <no-reply@launchpad.local>');
  });

  it("asked on the console's own host or another reseller's, it is on the first domain", async () => {
    for (const host of [PRODUCT_HOST, 'console.reseller-b.test', 'localhost']) {
      const link = linkIn((await forgot(people.customerAdmin, host)).mail);
      expect(link.origin, host).toBe('http://a.cloudy.test');
    }
  });

  it("a reseller without a brand name signs with its own name; its staff's links are on its domain", async () => {
    const [b] = await w.db
      .select({ name: resellers.name })
      .from(resellers)
      .where(eq(resellers.id, w.resellers.b.resellerId));
    const { from, mail } = await forgot(people.staffB, PRODUCT_HOST);
    expect(from).toBe(`${b!.name} <no-reply@launchpad.local>`);
    expect(linkIn(mail).origin).toBe('http://console.reseller-b.test');
  });

  it("the sign-in code comes under the reseller's name", async () => {
    await logIn(w.server, people.customerUser);
    expect(lastMail(people.customerUser).from).toBe('Cloudy <no-reply@launchpad.local>');
  });

  it("the product's own customers: PUBLIC_URL and MAIL_FROM as they are", async () => {
    const { from, mail } = await forgot(people.plainAdmin, 'a.cloudy.test');
    expect(linkIn(mail).origin).toBe('http://console.test');
    expect(from).toBe('Launchpad <no-reply@launchpad.local>');
  });

  it('an activation link sent after an import is on the domain', async () => {
    const res = await w.server.app.inject({
      method: 'POST',
      url: '/api/v1/imports/company',
      headers: bearer(OPERATOR_TOKEN),
      payload: {
        items: [
          {
            externalId: 'domains-new-customer',
            resellerExternalId: w.resellers.a.externalId,
            name: 'New Co',
            admin: { email: 'nina@newco.test', firstName: 'Nina', lastName: 'New' },
          },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    await w.server.settled();
    const { from, mail } = lastMail('nina@newco.test');
    expect(linkIn(mail).origin).toBe('http://a.cloudy.test');
    expect(linkIn(mail).pathname).toBe('/confirmNewUser');
    expect(from).toBe('Cloudy <no-reply@launchpad.local>');
  });
});

describe("the link's base", () => {
  const config = { publicUrl: 'https://console.example.com:8443/lp/' };
  it("keeps PUBLIC_URL's scheme, port and base path", () => {
    const site = mailSiteOf(config, {
      brandName: null,
      name: 'Skyline Ltd',
      domains: ['a.skyline.test', 'b.skyline.test'],
    });
    expect(site).toEqual({
      publicUrl: 'https://a.skyline.test:8443/lp/',
      fromName: 'Skyline Ltd',
    });
    expect(
      mailSiteOf(
        config,
        { brandName: 'Sky', name: 'x', domains: ['a.sky.test', 'b.sky.test'] },
        'B.sky.test',
      ).publicUrl,
    ).toBe('https://b.sky.test:8443/lp/');
    expect(mailSiteOf(config, { brandName: 'Sky', name: 'x', domains: [] }, 'a.sky.test')).toEqual({
      publicUrl: config.publicUrl,
      fromName: undefined,
    });
  });
});
