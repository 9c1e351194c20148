import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerSecurityHeaders } from '../../server/plugins/security-headers';
import { startTestServer, type TestServer } from './support/harness';

it('refuses, at start, a policy that would have to be made for each request', () => {
  const perRequest = { directives: { 'script-src': ["'self'", () => "'nonce-abc'"] } };
  expect(() => registerSecurityHeaders(Fastify(), { contentSecurityPolicy: perRequest })).toThrow(
    'cannot be made once',
  );
});

describe.each([
  { publicUrl: 'http://console.test/', hsts: undefined },
  { publicUrl: 'https://console.test/', hsts: 'max-age=31536000; includeSubDomains' },
])('the security headers at PUBLIC_URL=$publicUrl', ({ publicUrl, hsts }) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ PUBLIC_URL: publicUrl });
  });
  afterAll(() => server.close());

  it.each([
    ['an answer', '/api/v1/healthCheck/api', 200],
    ['a refusal', '/api/v1/users/me', 401],
    ['an unknown address', '/api/v1/nothing-here', 404],
  ])('are on %s', async (_what, url, status) => {
    const res = await server.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(status);
    expect(res.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'SAMEORIGIN',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'x-dns-prefetch-control': 'off',
    });
    const csp = String(res.headers['content-security-policy']).split(';');
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp.some((d) => d.startsWith('upgrade-insecure-requests'))).toBe(false);
    expect(res.headers['strict-transport-security']).toBe(hsts);
  });
});
