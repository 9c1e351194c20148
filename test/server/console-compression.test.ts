import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preferredEncoding } from '../../server/plugins/console';
import { users } from '../../server/db/schema';
import { startTestServer, type TestServer } from './support/harness';
import { createCompany, createUser } from './support/seed';
import { bearer, signIn } from './support/sign-in';

const SCRIPT = `console.log(${JSON.stringify('a bundle of the console '.repeat(200))});`;

/** A build as `vite build` leaves it: each asset with its precompressed .br and .gz beside it. */
function builtConsole(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'launchpad-dist-'));
  mkdirSync(path.join(dir, 'assets'));
  const html = `<!doctype html><html><head><title>Launchpad</title></head><body><div id="root"></div>${'<!-- padding -->'.repeat(100)}</body></html>`;
  writeFileSync(path.join(dir, 'index.html'), html);
  writeFileSync(path.join(dir, 'index.html.br'), 'raw build output');
  const asset = path.join(dir, 'assets', 'main-abc123.js');
  writeFileSync(asset, SCRIPT);
  writeFileSync(`${asset}.br`, brotliCompressSync(SCRIPT));
  writeFileSync(`${asset}.gz`, gzipSync(SCRIPT));
  return dir;
}

let server: TestServer;
let dist: string;
let token: string;
beforeAll(async () => {
  dist = builtConsole();
  server = await startTestServer({}, { consoleDir: dist });
  const db = server.database.db;
  const { company } = await createCompany(db);
  const admin = await createUser(db, { companyId: company.id, isAdmin: true });
  await db.insert(users).values(
    Array.from({ length: 60 }, (_, i) => ({
      companyId: company.id,
      email: `user-${i}@compress.test`,
      firstName: `First${i}`,
      lastName: `Last${i}`,
    })),
  );
  ({ token } = await signIn(server, admin.email));
});
afterAll(async () => {
  await server.close();
  rmSync(dist, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string, headers: Record<string, string> = {}) =>
  server.app.inject({
    method: 'GET',
    url,
    headers: {
      ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }),
      ...headers,
    },
  });

describe('compression', () => {
  it('sends the precompressed asset the browser asks for, and the plain one otherwise', async () => {
    const asset = path.join(dist, 'assets', 'main-abc123.js');
    const br = await get('/assets/main-abc123.js', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.rawPayload.equals(readFileSync(`${asset}.br`))).toBe(true);

    const gzip = await get('/assets/main-abc123.js', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(SCRIPT);

    const plain = await get('/assets/main-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });

  it('never serves the built index.html as a file, compressed or not', async () => {
    for (const file of ['/index.html', '/index.html.br']) {
      const res = await get(file);
      expect(res.body).not.toContain('raw build output');
      // Any other path is a deep link into the console.
      expect(res.body).toContain('<base href="/" />');
    }
  });

  it('compresses index.html too, with the base path written in', async () => {
    const br = await get('/login', 'br;q=1, gzip;q=0.5');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toContain('<base href="/" />');

    const gzip = await get('/login', 'br;q=0, gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toContain('<div id="root"></div>');

    const plain = await get('/login', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('<base href="/" />');
  });

  it('compresses an API answer above 1 KB, and leaves a small one as it is', async () => {
    const list = await get('/api/v1/users/list?rowsPerPage=50', 'br, gzip', bearer(token));
    expect(list.statusCode).toBe(200);
    expect(list.headers['content-encoding']).toBe('br');
    const body = JSON.parse(brotliDecompressSync(list.rawPayload).toString());
    expect(body.data.data).toHaveLength(50);

    const asGzip = await get('/api/v1/users/list?rowsPerPage=50', 'gzip', bearer(token));
    expect(asGzip.headers['content-encoding']).toBe('gzip');

    const small = await get('/api/v1/healthCheck/api', 'br, gzip');
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();

    const unasked = await get('/api/v1/users/list?rowsPerPage=50', undefined, bearer(token));
    expect(unasked.headers['content-encoding']).toBeUndefined();
    expect(unasked.json().data.data).toHaveLength(50);
  });

  it.each([
    ['gzip, deflate, br', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=0', undefined],
    ['*', 'gzip'],
    ['', undefined],
    [undefined, undefined],
  ])('picks an encoding for Accept-Encoding %j', (header, expected) => {
    expect(preferredEncoding(header)).toBe(expected);
  });
});
