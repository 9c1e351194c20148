import { describe, expect, it } from 'vitest';
import { domainsSchema, isHostName } from '../../src/api/contract/reseller-settings';
import { brandedPage } from '../../server/plugins/console-brand';

describe('a host name', () => {
  it.each([
    'console.example.com',
    'a.io',
    'xn--bcher-kva.example',
    'my-console.reseller-1.example',
    `${'a'.repeat(63)}.example`,
  ])('%s is one', (host) => expect(isHostName(host)).toBe(true));

  it.each([
    'example',
    '-console.example.com',
    'console-.example.com',
    'console..example.com',
    'console.example.com.',
    '.example.com',
    'console.example.123',
    '127.0.0.1',
    'console.example.com:8080',
    'https://console.example.com',
    `${'a'.repeat(64)}.example`,
    `${'a.'.repeat(126)}io`,
  ])('%s is not', (host) => expect(isHostName(host)).toBe(false));

  it('is stored lower-case and trimmed', () => {
    expect(domainsSchema.parse([' Console.Example.COM '])).toEqual(['console.example.com']);
  });
});

describe("the page of a reseller's domain", () => {
  const html =
    '<html><head><meta charset="UTF-8" /><link rel="icon" id="tab-icon" href="data:x" /><title>Launchpad</title></head><body></body></html>';

  it('keeps the page as it is where the brand has nothing to say', () => {
    const page = brandedPage(html, {
      brand: { name: null, logoUrl: null, tabLogoUrl: null },
      primaryColor: null,
    });
    expect(page).toContain('<title>Launchpad</title>');
    expect(page).toContain('href="data:x"');
    expect(page).toContain(
      '<meta name="launchpad-brand" content="{&quot;name&quot;:null,&quot;logoUrl&quot;:null,&quot;tabLogoUrl&quot;:null}" />',
    );
  });

  it('cannot be broken out of by what the reseller wrote', () => {
    const page = brandedPage(html, {
      brand: {
        name: '</title><script>alert(1)</script>',
        logoUrl: null,
        tabLogoUrl: '"><script>alert(2)</script>',
      },
      primaryColor: null,
    });
    expect(page).not.toContain('<script>');
  });
});
