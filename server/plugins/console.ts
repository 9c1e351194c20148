import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { HostBrandPage } from '../domain/reseller/settings-host-brand';
import { brandedPage } from './console-brand';
import { dropPageOnlyHeaders } from './security-headers';

const escapeAttr = (v: string) =>
  v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The reseller brands of the hosts the console's pages are asked for (docs/reseller-domains.md). */
export interface ConsoleBrands {
  /** PUBLIC_URL's host: its pages go out as built, without a lookup. */
  productHost: string;
  /** The brand of a reseller's domain (lower-case, no port); undefined for any other host. */
  find(host: string): Promise<HostBrandPage | undefined>;
}

type Page = ReturnType<typeof compressed>;

/**
 * The built console under the base path: `index.html` for each of its addresses, but `/login`,
 * which gets `login.html`, the same page with the sign-in screen drawn in it at build.
 */
export async function registerConsole(
  app: FastifyInstance,
  distDir: string,
  basePath: string,
  brands?: ConsoleBrands,
) {
  const indexFile = path.join(distDir, 'index.html');
  if (!existsSync(indexFile)) {
    app.log.warn({ distDir }, 'console not built; serving the API only');
    return undefined;
  }
  const index = consolePage(indexFile, basePath);
  // The sign-in screen drawn at build (scripts/build/login-page.ts), for its own address.
  const loginFile = path.join(distDir, 'login.html');
  const login = existsSync(loginFile) ? consolePage(loginFile, basePath) : index;
  const loginPath = `${basePath}login`;

  const send = (reply: FastifyReply, page: Page) => {
    reply
      .code(200)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('vary', 'Accept-Encoding');
    const encoding = preferredEncoding(reply.request.headers['accept-encoding']);
    if (!encoding) return reply.send(page.html);
    return reply.header('content-encoding', encoding).send(page[encoding]);
  };

  // A reseller's pages, made and compressed once per brand: read for every request (a brand
  // saved shows on the next page), compressed only when it changes.
  const branded = new LRUCache<string, Page>({ max: 100 });
  const brandedFor = (found: HostBrandPage) => {
    const key = JSON.stringify(found);
    let page = branded.get(key);
    if (!page) {
      // Never the drawn sign-in card, which is the product's: the console draws the brand's.
      page = compressed(brandedPage(index.html, found));
      branded.set(key, page);
    }
    return page;
  };

  /**
   * The page of a console address. PUBLIC_URL's host gets it as built, at once; any other host is
   * looked up, and a reseller's domain gets the reseller's brand (an unknown host, the product's
   * page as it is).
   */
  const sendIndex = (reply: FastifyReply): FastifyReply | Promise<FastifyReply> => {
    const page = reply.request.url.split('?')[0] === loginPath ? login : index;
    const host = (reply.request.hostname ?? '').toLowerCase();
    if (!brands || host === '' || host === brands.productHost) return send(reply, page);
    return brands.find(host).then(
      (found) => send(reply, found ? brandedFor(found) : page),
      (error: unknown) => {
        reply.log.warn({ err: error }, 'the brand of the host could not be read');
        return send(reply, page);
      },
    );
  };

  await app.register(fastifyStatic, {
    root: distDir,
    prefix: basePath,
    index: false,
    wildcard: false,
    // The build wrote a .br and a .gz beside each text asset: sent by the Accept-Encoding.
    preCompressed: true,
    // The ETag revalidates what is not hashed; nothing here is fetched by ranges. Headers fewer on
    // every asset count on a phone: /login's four scripts have a budget over the wire, headers
    // included.
    lastModified: false,
    acceptRanges: false,
    // The noVNC page is served by the console gateway, behind its ticket; the built server
    // (dist/server, with its source maps) is nobody's business.
    globIgnore: ['index.html*', 'login.html*', 'console.html*', 'server/**'],
    // Hashed asset names never change content; index.html is sent by sendIndex without caching.
    setHeaders: (res, filePath: string) => {
      if (filePath.includes(`${path.sep}assets${path.sep}`)) {
        res.header('cache-control', 'public, max-age=31536000, immutable');
        // Never asked again: an ETag to revalidate with is bytes for nothing on each of them.
        res.removeHeader('etag');
      }
      // The path is that of the file sent: `.br` or `.gz` when precompressed.
      if (/\.(js|css)(\.br|\.gz)?$/.test(filePath)) dropPageOnlyHeaders(res.raw);
    },
  });
  app.get(basePath, (_request, reply) => sendIndex(reply));
  return sendIndex;
}

/**
 * A page of the console with the runtime base path written in: assets are built with relative
 * URLs, so it gets a <base href>, and a meta tag the router and API client read. Compressed once
 * here, as the build compressed the assets.
 */
function consolePage(file: string, basePath: string) {
  const html = readFileSync(file, 'utf8').replace(
    '<head>',
    `<head>\n    <base href="${escapeAttr(basePath)}" />\n    <meta name="launchpad-base-path" content="${escapeAttr(basePath)}" />`,
  );
  return compressed(html);
}

function compressed(html: string) {
  return {
    html,
    br: brotliCompressSync(html, {
      params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY },
    }),
    gzip: gzipSync(html, { level: 9 }),
  };
}

/**
 * The Content-Security-Policy sources that let the built pages' inline scripts run (the first
 * screen's preloads, scripts/build/first-screen-preload.ts; in login.html, the drawing of the
 * sign-in screen, scripts/build/login-page.ts) and no other: their hashes.
 */
export function inlineScriptSources(distDir: string): string[] {
  const pages = ['index.html', 'login.html']
    .map((name) => path.join(distDir, name))
    .filter((file) => existsSync(file));
  const scripts = pages.flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
      ([, code]) => code!,
    ),
  );
  return [...new Set(scripts)].map(
    (code) => `'sha256-${createHash('sha256').update(code).digest('base64')}'`,
  );
}

/**
 * The encoding of the Accept-Encoding header's choice among ours, as @fastify/static chooses for
 * the assets (with its negotiator; `*` counts as gzip).
 */
export function preferredEncoding(
  header: string | string[] | undefined,
): 'br' | 'gzip' | undefined {
  const value = String(header ?? '')
    .toLowerCase()
    .replace(/\*/g, 'gzip');
  return negotiate<'br' | 'gzip'>(value, ['br', 'gzip']) ?? undefined;
}
