import { brandColorCss } from '../../src/api/contract/brand-color';
import type { HostBrandPage } from '../domain/reseller/settings-host-brand';

const escapeAttr = (v: string) =>
  v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeText = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;');

const TITLE = /<title>[^<]*<\/title>\s*/;
/** index.html's tab icon (its default is a data: URL, `>` written as %3E). */
const TAB_ICON = /<link\b[^>]*\bid="tab-icon"[^>]*>\s*/;
/** The brand's tags go last in the head: after the charset, within the first bytes. */
const HEAD_END = /<\/head>/;

/**
 * The console's page as a reseller's domain shows it before anyone signs in: the reseller's name
 * as the tab title, its tab logo, its brand for the sign-in screens to draw (`<meta
 * name="launchpad-brand">`, contract `hostBrand`) and its primary colour as a stylesheet (the
 * Content-Security-Policy allows inline styles: Mantine writes them too). The page's own title
 * and tab icon make way for the brand's.
 */
export function brandedPage(html: string, { brand, primaryColor }: HostBrandPage): string {
  const { name, tabLogoUrl } = brand;
  const tags = [`<meta name="launchpad-brand" content="${escapeAttr(JSON.stringify(brand))}" />`];
  let page = html;
  if (name) {
    page = page.replace(TITLE, '');
    tags.push(`<title>${escapeText(name)}</title>`);
  }
  if (tabLogoUrl) {
    page = page.replace(TAB_ICON, '');
    tags.push(`<link rel="icon" id="tab-icon" href="${escapeAttr(tabLogoUrl)}" />`);
  }
  if (primaryColor)
    tags.push(`<style id="host-brand-color">${brandColorCss(primaryColor)}</style>`);
  // A function: a `$&` in a name must stay text, not become a replacement pattern.
  return page.replace(HEAD_END, (end) => `  ${tags.join('\n    ')}\n  ${end}`);
}
