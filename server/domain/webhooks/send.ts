import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Destination } from './address-guard';

/** How long a receiver has to answer, connection included. */
export const DELIVERY_TIMEOUT_MS = 10_000;

/** `v1=` and the hex HMAC-SHA256, with the secret, of `<timestamp>.<body>`. */
export const signatureOf = (secret: string, timestamp: number, body: string) =>
  `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;

export interface SendResult {
  statusCode: number | null;
  /** Null when no request was made (a refused destination). */
  latencyMs: number | null;
  error: string | null;
}

export interface SignedPost {
  url: URL;
  destination: Destination;
  eventId: number;
  body: string;
  secret: string;
  /** Unix seconds. */
  timestamp: number;
  timeoutMs?: number;
}

/**
 * POSTs the body to the URL, connected to the destination's address only (the host name still
 * goes in `Host` and TLS's SNI and certificate check). The answer's body is read and dropped.
 */
export function sendSigned(post: SignedPost): Promise<SendResult> {
  const { url, destination, timeoutMs = DELIVERY_TIMEOUT_MS } = post;
  const pinned: LookupFunction = (_host, options, callback) => {
    if (options.all) callback(null, [destination]);
    else callback(null, destination.address, destination.family);
  };
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(
      url,
      {
        method: 'POST',
        lookup: pinned,
        agent: false,
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(post.body),
          'User-Agent': 'Launchpad-Webhooks/1',
          'Launchpad-Event-Id': String(post.eventId),
          'Launchpad-Timestamp': String(post.timestamp),
          'Launchpad-Signature': signatureOf(post.secret, post.timestamp, post.body),
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => {
          clearTimeout(timer);
          resolve({ statusCode: response.statusCode ?? null, latencyMs: latency(), error: null });
        });
        response.on('error', fail);
      },
    );
    function fail(error: Error) {
      clearTimeout(timer);
      resolve({ statusCode: null, latencyMs: latency(), error: error.message });
    }
    const timer = setTimeout(() => {
      request.destroy(new Error(`No answer within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    request.on('error', fail);
    request.end(post.body);
  });
}
