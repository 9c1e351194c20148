import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueConsoleTicket } from '../../server/providers/console-ticket';
import { startTestServer, type TestServer } from './support/harness';

/** A stand-in for `vite build` output: what matters here is how the server hands it out. */
function fakeBuild(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'launchpad-dist-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html><head><title>Launchpad</title></head><body><div id="root"></div></body></html>',
  );
  writeFileSync(
    path.join(dir, 'login.html'),
    '<!doctype html><html><head><title>Launchpad</title></head><body><div id="root"></div><template id="login-card"><main inert="">Login</main></template></body></html>',
  );
  writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'console.log("app")');
  writeFileSync(
    path.join(dir, 'assets', 'index-abc123.js.br'),
    brotliCompressSync('console.log("app")'),
  );
  writeFileSync(path.join(dir, 'assets', 'index-abc123.css'), 'body { margin: 0 }');
  writeFileSync(
    path.join(dir, 'assets', 'logo-abc123.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg"/>',
  );
  return dir;
}

describe.each([
  { basePath: '/', prefix: '' },
  { basePath: '/console/', prefix: '/console' },
])('the console served under BASE_PATH=$basePath', ({ basePath, prefix }) => {
  let server: TestServer;
  let dist: string;
  const get = (url: string) => server.app.inject({ method: 'GET', url });

  beforeAll(async () => {
    dist = fakeBuild();
    server = await startTestServer({ BASE_PATH: basePath }, { consoleDir: dist });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('serves index.html with the base path written in, uncached', async () => {
    const res = await get(`${prefix}/`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain(`<base href="${basePath}" />`);
    expect(res.body).toContain(`<meta name="launchpad-base-path" content="${basePath}" />`);
  });

  it('answers deep links with the console', async () => {
    const res = await get(`${prefix}/resetPassword?token=abc&id=3`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root"></div>');
  });

  it('answers /login with the page its screen was drawn in at build, with the base path written in', async () => {
    for (const url of [`${prefix}/login`, `${prefix}/login?redirect=%2Fusers`]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body, url).toContain('<template id="login-card"><main inert="">Login</main>');
      expect(res.body).toContain(`<base href="${basePath}" />`);
    }
    for (const url of [`${prefix}/`, `${prefix}/mfa`, `${prefix}/login/more`, `${prefix}/loginx`]) {
      expect((await get(url)).body, url).not.toContain('login-card');
    }
    const compressed = await server.app.inject({
      method: 'GET',
      url: `${prefix}/login`,
      headers: { 'accept-encoding': 'br' },
    });
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(compressed.rawPayload).toString()).toContain('<main inert="">');
    const raw = await get(`${prefix}/login.html`);
    expect(raw.body).not.toContain('login-card');
  });

  it('serves hashed assets as immutable, with nothing to revalidate them by', async () => {
    const res = await get(`${prefix}/assets/index-abc123.js`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('immutable');
    expect(res.headers.etag).toBeUndefined();
  });

  it("leaves the page's own headers off its scripts and stylesheets, not off anything else", async () => {
    const page = await get(`${prefix}/`);
    const script = await get(`${prefix}/assets/index-abc123.js`);
    const compressedScript = await server.app.inject({
      method: 'GET',
      url: `${prefix}/assets/index-abc123.js`,
      headers: { 'accept-encoding': 'br' },
    });
    expect(compressedScript.headers['content-encoding']).toBe('br');
    const style = await get(`${prefix}/assets/index-abc123.css`);
    const image = await get(`${prefix}/assets/logo-abc123.svg`);
    for (const res of [page, script, compressedScript, style, image]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'cross-origin-resource-policy': 'same-origin',
      });
    }
    for (const res of [page, image]) {
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    }
    for (const res of [script, compressedScript, style]) {
      expect(res.headers['referrer-policy']).toBeUndefined();
      expect(res.headers['content-security-policy']).toBeUndefined();
      expect(res.headers['x-frame-options']).toBeUndefined();
      expect(res.headers['cross-origin-opener-policy']).toBeUndefined();
    }
  });

  it('answers a console link signed with another key with the expired page, not a 414', async () => {
    const ticket = issueConsoleTicket(
      randomBytes(32),
      {
        vmId: 2_000_000_000,
        userId: 2_000_000_000,
        holder: { kind: 'session', id: 2_000_000_000 },
      },
      new Date(),
    );
    expect(ticket.length).toBeGreaterThan(90);
    const res = await get(`${prefix}/console/${ticket}`);
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('This console link has expired');
  });

  it('answers unknown API paths with the 404 envelope, never the console', async () => {
    const res = await get(`${prefix}/api/v1/nothing-here`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ data: null, message: 'Not found' });
  });

  it('does not serve the raw index.html without the base path', async () => {
    const res = await get(`${prefix}/index.html`);
    expect(res.body).toContain(`<base href="${basePath}" />`);
  });
});

describe('paths outside BASE_PATH', () => {
  let server: TestServer;
  let dist: string;

  beforeAll(async () => {
    dist = fakeBuild();
    server = await startTestServer({ BASE_PATH: '/console/' }, { consoleDir: dist });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('are not found', async () => {
    for (const url of ['/', '/login', '/api/v1/healthCheck/api']) {
      const res = await server.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
    }
  });
});

describe("the page's inline script", () => {
  const inline = "console.log('first screen')";
  let server: TestServer;
  let dist: string;

  beforeAll(async () => {
    dist = fakeBuild();
    writeFileSync(
      path.join(dist, 'index.html'),
      `<!doctype html><html><head><script>${inline}</script></head><body></body></html>`,
    );
    server = await startTestServer({}, { consoleDir: dist });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('is allowed by its hash, and no other inline script is', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/virtualMachines' });
    expect(res.body).toContain(`<script>${inline}</script>`);
    const scriptSrc = String(res.headers['content-security-policy'])
      .split(';')
      .find((directive) => directive.startsWith('script-src'));
    const hash = createHash('sha256').update(inline).digest('base64');
    expect(scriptSrc).toBe(`script-src 'self' 'sha256-${hash}'`);
  });
});
