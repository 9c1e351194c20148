import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendSigned, signatureOf, type SendResult } from '../../server/domain/webhooks/send';

/**
 * Receivers on 127.0.0.1: one that never answers, one that answers with a redirect, and one over
 * TLS with a certificate for hooks.example.test that only a process trusting it accepts.
 */
let silent: http.Server;
let redirecting: http.Server;
let secure: https.Server;
let dir: string;
const hosts: string[] = [];
const received: {
  servername: string | false | null;
  signature: string | undefined;
  body: string;
}[] = [];
const portOf = (server: http.Server) => (server.address() as AddressInfo).port;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'launchpad-webhook-tls-'));
  // A self-signed certificate for the receiver's name, as openssl from Debian's packages makes it.
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
      ...['-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'), '-days', '1'],
      ...['-subj', '/CN=hooks.example.test', '-addext', 'subjectAltName=DNS:hooks.example.test'],
    ],
    { stdio: 'ignore' },
  );
  silent = http.createServer(() => {});
  redirecting = http.createServer((request, response) => {
    hosts.push(request.headers.host ?? '');
    response.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' }).end();
  });
  secure = https.createServer(
    {
      key: readFileSync(path.join(dir, 'key.pem')),
      cert: readFileSync(path.join(dir, 'cert.pem')),
    },
    (request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const signature = request.headers['launchpad-signature'];
        received.push({
          servername: (request.socket as TLSSocket).servername,
          signature: typeof signature === 'string' ? signature : undefined,
          body,
        });
        response.writeHead(204).end();
      });
    },
  );
  await Promise.all(
    [silent, redirecting, secure].map((s) => new Promise<void>((r) => s.listen(0, '127.0.0.1', r))),
  );
});
afterAll(async () => {
  silent.closeAllConnections();
  await Promise.all([silent, redirecting, secure].map((s) => new Promise((r) => s.close(r))));
  rmSync(dir, { recursive: true, force: true });
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

  it("checks a TLS receiver's certificate against its name, though it connects to the address", async () => {
    const result = await sendSigned({
      url: new URL(`https://hooks.example.test:${portOf(secure)}/hooks`),
      destination: { address: '127.0.0.1', family: 4 },
      eventId: 8,
      body: '{}',
      secret: 'whsec_test',
      timestamp: 1_800_000_000,
    });
    expect(result).toMatchObject({ statusCode: null, error: 'self-signed certificate' });
    expect(received).toEqual([]);
  });

  it('delivers over TLS, with the name in SNI, where the certificate is trusted', async () => {
    // A process that trusts the receiver's certificate, as an operator's private CA is trusted.
    const script = `
      const { sendSigned } = await import('./server/domain/webhooks/send.ts');
      const result = await sendSigned({
        url: new URL('https://hooks.example.test:${portOf(secure)}/hooks'),
        destination: { address: '127.0.0.1', family: 4 },
        eventId: 9, body: '{"id":9}', secret: 'whsec_test', timestamp: 1800000000,
      });
      process.stdout.write(JSON.stringify(result));`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: root, env: { ...process.env, NODE_EXTRA_CA_CERTS: path.join(dir, 'cert.pem') } },
    );
    expect(JSON.parse(stdout) as SendResult).toMatchObject({ statusCode: 204, error: null });
    expect(received).toEqual([
      {
        servername: 'hooks.example.test',
        signature: signatureOf('whsec_test', 1_800_000_000, '{"id":9}'),
        body: '{"id":9}',
      },
    ]);
  });
});
