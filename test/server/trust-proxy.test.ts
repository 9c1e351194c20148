import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, parseTrustProxy, trustProxyOption } from '../../server/config';
import { startTestServer, type TestServer } from './support/harness';

/**
 * Behind a proxy, the per-address limits key on the address the proxy saw. `X-Forwarded-For` is
 * `<what the client wrote>, …, <what the proxy saw>`: only its right-hand end, as many entries as
 * there are trusted proxies, can be believed.
 */
const LIMIT = 3;
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ AUTH_RATE_LIMIT: String(LIMIT), TRUST_PROXY: 'true' });
});
afterAll(() => server.close());

/** A failed sign-in from `remoteAddress`, with the client's own forged left-hand entries. */
const attempt = (s: TestServer, remoteAddress: string, forwardedFor: string) =>
  s.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    remoteAddress,
    headers: { 'x-forwarded-for': forwardedFor },
    payload: { email: 'nobody@example.com', password: 'wrong' },
  });

/** Sends LIMIT + 1 attempts, each with a new forged left-hand address; the last one's status. */
async function rotateForgedAddress(s: TestServer, remoteAddress: string, seen: string) {
  let status = 0;
  for (let i = 0; i <= LIMIT; i += 1) {
    status = (await attempt(s, remoteAddress, `198.51.100.${i + 1}, ${seen}`)).statusCode;
  }
  return status;
}

describe('TRUST_PROXY', () => {
  it('=true: a client rotating the left-hand X-Forwarded-For is still limited', async () => {
    expect(await rotateForgedAddress(server, '10.1.0.1', '203.0.113.7')).toBe(429);
    // Another client behind the same proxy is not.
    expect((await attempt(server, '10.1.0.1', '203.0.113.8')).statusCode).toBe(401);
  });

  /** The address a request is keyed by, as Fastify works it out with the setting. */
  async function clientAddress(setting: string, remoteAddress: string, forwardedFor: string) {
    const app = Fastify({ trustProxy: trustProxyOption(parseTrustProxy(setting)!) });
    app.get('/', async (request) => request.ip);
    const res = await app.inject({
      url: '/',
      remoteAddress,
      headers: { 'x-forwarded-for': forwardedFor },
    });
    await app.close();
    return res.body;
  }

  it.each([
    ['true', '10.1.0.1', '198.51.100.1, 203.0.113.7', '203.0.113.7'],
    ['1', '10.1.0.1', '198.51.100.1, 203.0.113.7', '203.0.113.7'],
    ['2', '10.1.0.1', '198.51.100.1, 203.0.113.7, 10.2.0.1', '203.0.113.7'],
    ['10.1.0.0/24', '10.1.0.5', '198.51.100.1, 203.0.113.7', '203.0.113.7'],
    ['10.1.0.0/24, 10.2.0.1', '10.1.0.5', '198.51.100.1, 203.0.113.7, 10.2.0.1', '203.0.113.7'],
    // A client that reaches the server without the proxy is its own address, whatever it writes.
    ['10.1.0.0/24', '192.0.2.50', '203.0.113.7', '192.0.2.50'],
    ['false', '10.1.0.9', '203.0.113.7', '10.1.0.9'],
  ])('=%s: from %s with X-Forwarded-For %s, the client is %s', async (setting, remote, xff, ip) => {
    expect(await clientAddress(setting, remote, xff)).toBe(ip);
  });

  it('takes a hop count, addresses or CIDRs, and nothing else', () => {
    expect(parseTrustProxy('true')).toBe(1);
    expect(parseTrustProxy('no')).toBe(false);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('10.0.0.1, 192.168.0.0/16, ::1, fd00::/8')).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      '::1',
      'fd00::/8',
    ]);
    for (const bad of ['yes please', '10.0.0.0/33', '10.0.0.300', 'proxy.internal', '-1']) {
      expect(parseTrustProxy(bad)).toBeUndefined();
    }
    expect(() => loadConfig({ TRUST_PROXY: 'loopback', APP_SECRET: 'x'.repeat(32) })).toThrow(
      /^Configuration error: TRUST_PROXY must be false, true \(one proxy\), a number of proxy hops/,
    );
  });
});
