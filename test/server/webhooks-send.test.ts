import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendSigned, signatureOf } from '../../server/domain/webhooks/send';

/** A receiver on 127.0.0.1 that never answers, and one that answers after a redirect. */
let silent: http.Server;
let redirecting: http.Server;
const hosts: string[] = [];
const portOf = (server: http.Server) => (server.address() as AddressInfo).port;

beforeAll(async () => {
  silent = http.createServer(() => {});
  redirecting = http.createServer((request, response) => {
    hosts.push(request.headers.host ?? '');
    response.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' }).end();
  });
  await Promise.all(
    [silent, redirecting].map((s) => new Promise<void>((r) => s.listen(0, '127.0.0.1', r))),
  );
});
afterAll(async () => {
  silent.closeAllConnections();
  await Promise.all([silent, redirecting].map((s) => new Promise((r) => s.close(r))));
});

const post = (port: number, host: string, timeoutMs = 10_000) =>
  sendSigned({
    url: new URL(`http://${host}:${port}/hooks`),
    destination: { address: '127.0.0.1', family: 4 },
    eventId: 7,
    body: '{}',
    secret: 'whsec_test',
    timestamp: 1_800_000_000,
    timeoutMs,
  });

describe('sendSigned', () => {
  it('gives up on a receiver that does not answer in time', async () => {
    const result = await post(portOf(silent), '127.0.0.1', 300);
    expect(result).toMatchObject({ statusCode: null, error: 'No answer within 0.3 s' });
  });

  it('connects to the checked address only, naming the host in Host, and follows no redirect', async () => {
    // The name is never resolved again: the connection goes to the address given.
    const result = await post(portOf(redirecting), 'hooks.example.invalid');
    expect(result).toMatchObject({ statusCode: 302, error: null });
    expect(hosts).toEqual([`hooks.example.invalid:${portOf(redirecting)}`]);
  });

  it('signs "<timestamp>.<body>" with HMAC-SHA256', () => {
    // As openssl computes it: printf '1800000000.{}' | openssl dgst -sha256 -hmac whsec_test
    expect(signatureOf('whsec_test', 1_800_000_000, '{}')).toBe(
      'v1=482e6337ac5272392d375c6fdc4d52a7e615dc2facedab0ffe155ddfd6a56e66',
    );
  });
});
