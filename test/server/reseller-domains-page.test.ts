import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brandColorCss } from '../../src/api/contract/brand-color';
import { hostBrand } from '../../src/api/contract/reseller-settings';
import { resellerDomains, resellers } from '../../server/db/schema';
import { PRODUCT_HOST, startDomainWorld, type DomainWorld } from './support/reseller-domain-world';

/**
 * The console's pages on a reseller's domain: its name as the tab title, its tab logo, its brand
 * for the sign-in screens and its primary colour, before anyone signs in. Every other host gets
 * the pages as built, PUBLIC_URL's without even a lookup.
 */

const DEFAULT_ICON =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Ccircle cx='8' cy='8' r='7' fill='white'/%3E%3C/svg%3E";
const HEAD = `<head>
    <meta charset="UTF-8" />
    <link
      rel="icon"
      id="tab-icon"
      href="${DEFAULT_ICON}"
    />
    <title>Launchpad</title>
    <script type="module" crossorigin src="./assets/index-abc.js"></script>
  </head>`;

/** index.html and login.html as the build writes them, in the parts the server rewrites. */
function fakeBuild(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'launchpad-dist-'));
  mkdirSync(path.join(dir, 'assets'));
  const page = (body: string) =>
    `<!doctype html>\n<html lang="en">\n  ${HEAD}\n  <body>${body}</body>\n</html>\n`;
  writeFileSync(path.join(dir, 'index.html'), page('<div id="root"></div>'));
  writeFileSync(
    path.join(dir, 'login.html'),
    page('<div id="root"></div><template id="login-card"><main inert="">Login</main></template>'),
  );
  return dir;
}

let w: DomainWorld;
let dist: string;
beforeAll(async () => {
  dist = fakeBuild();
  w = await startDomainWorld({ consoleDir: dist });
  await w.db
    .update(resellers)
    .set({
      resellerName: 'Cloudy "Clouds" <&> $& Co',
      logoUrl: 'https://cdn.cloudy.test/logo.svg',
      tabLogoUrl: 'https://cdn.cloudy.test/tab.svg?a=1&b=2',
      primaryColor: '#0b5394',
    })
    .where(eq(resellers.id, w.resellers.a.resellerId));
  await w.addDomain(w.resellers.a.resellerId, 'console.cloudy.test');
  await w.addDomain(w.resellers.b.resellerId, 'console.reseller-b.test');
}, 60_000);
afterAll(async () => {
  await w?.close();
  if (dist) rmSync(dist, { recursive: true, force: true });
});

const page = (url: string, host: string, headers: Record<string, string> = {}) =>
  w.server.app.inject({ method: 'GET', url, headers: { host, ...headers } });

const unescapeAttr = (v: string) =>
  v
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
const metaBrand = (html: string) => {
  const content = html.match(/<meta name="launchpad-brand" content="([^"]*)" \/>/)?.[1];
  return content === undefined ? undefined : hostBrand.parse(JSON.parse(unescapeAttr(content)));
};

describe("a reseller's domain", () => {
  it.each(['/login', '/forgotPassword', '/resetPassword?token=x&id=1', '/'])(
    '%s carries its title, tab logo, brand and colour',
    async (url) => {
      const res = await page(url, 'console.cloudy.test');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      const html = res.body;
      expect(html.match(/<title>/g)).toHaveLength(1);
      expect(html).toContain('<title>Cloudy "Clouds" &lt;&amp;> $&amp; Co</title>');
      expect(html.match(/id="tab-icon"/g)).toHaveLength(1);
      expect(html).toContain(
        '<link rel="icon" id="tab-icon" href="https://cdn.cloudy.test/tab.svg?a=1&amp;b=2" />',
      );
      expect(metaBrand(html)).toEqual({
        name: 'Cloudy "Clouds" <&> $& Co',
        logoUrl: 'https://cdn.cloudy.test/logo.svg',
        tabLogoUrl: 'https://cdn.cloudy.test/tab.svg?a=1&b=2',
      });
      expect(html).toContain(`<style id="host-brand-color">${brandColorCss('#0b5394')}</style>`);
      // The sign-in card drawn at build is the product's: the console draws the brand's.
      expect(html).not.toContain('login-card');
      // The tags are in the head, after the charset.
      const head = html.slice(0, html.indexOf('</head>'));
      expect(head.indexOf('<meta charset')).toBeLessThan(head.indexOf('launchpad-brand'));
      expect(head).toContain('<style id="host-brand-color">');
    },
  );

  it('is recognised whatever the case and port of the Host', async () => {
    const res = await page('/login', 'Console.Cloudy.TEST:8443');
    expect(metaBrand(res.body)?.logoUrl).toBe('https://cdn.cloudy.test/logo.svg');
  });

  it('is compressed as the Accept-Encoding asks', async () => {
    const plain = (await page('/login', 'console.cloudy.test')).body;
    const br = await page('/login', 'console.cloudy.test', { 'accept-encoding': 'br, gzip' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain);
    const gzip = await page('/login', 'console.cloudy.test', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain);
  });

  it('a reseller without a brand name, logo or colour: its own name, the default icon', async () => {
    const html = (await page('/login', 'console.reseller-b.test')).body;
    const [b] = await w.db
      .select({ name: resellers.name })
      .from(resellers)
      .where(eq(resellers.id, w.resellers.b.resellerId));
    expect(html).toContain(`<title>${b!.name}</title>`);
    expect(metaBrand(html)).toEqual({ name: b!.name, logoUrl: null, tabLogoUrl: null });
    expect(html).toContain(`href="${DEFAULT_ICON}"`);
    expect(html).not.toContain('<style');
  });

  it('a saved brand shows on the next page', async () => {
    await w.db
      .update(resellers)
      .set({ primaryColor: '#7b2d8e' })
      .where(eq(resellers.id, w.resellers.b.resellerId));
    const html = (await page('/login', 'console.reseller-b.test')).body;
    expect(html).toContain(brandColorCss('#7b2d8e'));
  });
});

describe('every other host', () => {
  it("PUBLIC_URL's host gets the pages as built, byte for byte as any unknown host does", async () => {
    for (const url of ['/login', '/', '/forgotPassword']) {
      for (const encoding of ['', 'br', 'gzip']) {
        const headers: Record<string, string> = encoding ? { 'accept-encoding': encoding } : {};
        const own = await page(url, PRODUCT_HOST, headers);
        const unknown = await page(url, 'elsewhere.test', headers);
        expect(own.statusCode).toBe(200);
        expect(own.rawPayload.equals(unknown.rawPayload), `${url} ${encoding}`).toBe(true);
        const html =
          encoding === 'br'
            ? brotliDecompressSync(own.rawPayload).toString()
            : encoding === 'gzip'
              ? gunzipSync(own.rawPayload).toString()
              : own.body;
        expect(html).toContain('<title>Launchpad</title>');
        expect(html).not.toMatch(/launchpad-brand|host-brand-color|Cloudy/);
        expect(html.includes('login-card')).toBe(url === '/login');
      }
    }
  });

  it("PUBLIC_URL's host stays unbranded even if a reseller held it", async () => {
    await w.addDomain(w.resellers.a.resellerId, PRODUCT_HOST);
    try {
      const html = (await page('/login', PRODUCT_HOST)).body;
      expect(html).not.toContain('launchpad-brand');
    } finally {
      await w.db.delete(resellerDomains).where(eq(resellerDomains.host, PRODUCT_HOST));
    }
  });
});
