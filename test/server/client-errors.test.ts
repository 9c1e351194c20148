import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLIENT_ERROR_BUFFER,
  clientErrorLimits,
  type ClientErrorEvent,
} from '../../src/api/contract/client-errors';
import { CLIENT_ERROR_REPORTS_PER_MINUTE } from '../../server/routes/client-errors';
import { startTestServer, type TestServer } from './support/harness';

let server: TestServer;
let lines: Record<string, unknown>[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
    done();
  },
});

beforeAll(async () => {
  server = await startTestServer({}, { logStream, logLevel: 'info' });
});
afterAll(() => server.close());

let address = 0;
/** Each test reports from its own client address, so the rate limit of one does not leak. */
const report = (payload: unknown, ip = `10.0.0.${(address += 1)}`) =>
  server.app.inject({
    method: 'POST',
    url: '/api/v1/logging',
    remoteAddress: ip,
    payload: payload as object,
  });

const anEvent = (overrides: Partial<ClientErrorEvent> = {}): ClientErrorEvent => ({
  type: 'error',
  message: 'TypeError: cannot read properties of undefined',
  stack: 'TypeError: cannot read properties of undefined\n    at render (index-abc.js:1:200)',
  source: 'http://console.test/assets/index-abc.js:1:200',
  url: 'http://console.test/virtualMachines',
  userAgent: 'Mozilla/5.0 Chromium',
  occurredAt: '2026-03-10T09:00:00.000Z',
  ...overrides,
});

const reported = () => lines.filter((line) => line.msg === 'browser error reported');

describe('POST /logging', () => {
  it('logs each event without a session, at error level (warn for rejections)', async () => {
    lines = [];
    const res = await report({
      events: [anEvent(), anEvent({ type: 'unhandledrejection', message: 'Request failed' })],
    });

    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { received: 2 }, message: 'Report received' });
    const [first, second] = reported();
    expect(first).toMatchObject({
      level: 50,
      clientError: {
        type: 'error',
        message: 'TypeError: cannot read properties of undefined',
        url: 'http://console.test/virtualMachines',
        source: 'http://console.test/assets/index-abc.js:1:200',
      },
    });
    expect(second).toMatchObject({
      level: 40,
      clientError: { type: 'unhandledrejection', message: 'Request failed' },
    });
  });

  it('keeps tokens, cookies and query strings out of the log', async () => {
    lines = [];
    const token = 'Abcdefghijklmnopqrstuvwxyz0123456789_-ABCDE';
    const res = await report({
      events: [
        anEvent({
          message: `Failed: Authorization: Bearer ${token}; cookie launchpad_session=${token}`,
          stack: `at fetch (http://console.test/api/v1/users/resetPasswordFromEmail/${token})`,
          url: `http://console.test/resetPassword?token=${token}&id=3#top`,
          source: `http://console.test/confirmNewUser?token=${token}`,
        }),
        anEvent({ message: `password: hunter2-secret and resetKey=${token.slice(0, 20)}` }),
      ],
    });

    expect(res.statusCode).toBe(200);
    const logged = JSON.stringify(reported());
    expect(logged).not.toContain(token);
    expect(logged).not.toContain(token.slice(0, 20));
    expect(logged).not.toContain('hunter2-secret');
    expect(logged).not.toContain('?');
    const [first] = reported();
    expect(first).toMatchObject({
      clientError: {
        url: 'http://console.test/resetPassword',
        source: 'http://console.test/confirmNewUser',
      },
    });
    expect((first!.clientError as { message: string }).message).toContain('Bearer [redacted]');
  });

  it('cuts long texts instead of refusing them', async () => {
    lines = [];
    const res = await report({
      events: [
        anEvent({ message: 'very long '.repeat(2000), stack: 'at f (a.js:1:2)\n'.repeat(2000) }),
      ],
    });

    expect(res.statusCode).toBe(200);
    const [event] = reported();
    const logged = event!.clientError as { message: string; stack: string };
    expect(logged.message).toHaveLength(clientErrorLimits.message);
    expect(logged.stack).toHaveLength(clientErrorLimits.stack);
  });

  it(`takes at most ${CLIENT_ERROR_BUFFER} events a report and logs what the browser dropped`, async () => {
    const tooMany = await report({
      events: Array.from({ length: CLIENT_ERROR_BUFFER + 1 }, () => anEvent()),
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().errors[0].field).toBe('events');

    lines = [];
    const full = await report({
      events: Array.from({ length: CLIENT_ERROR_BUFFER }, () => anEvent()),
      dropped: 7,
    });
    expect(full.statusCode).toBe(200);
    expect(reported()).toHaveLength(CLIENT_ERROR_BUFFER);
    expect(lines.find((line) => line.msg === 'browser dropped error reports')).toMatchObject({
      dropped: 7,
    });
  });

  it.each([
    [{}, 'events'],
    [{ events: [] }, 'events'],
    [{ events: [{ type: 'error' }] }, 'events.0.message'],
    [{ events: [anEvent({ type: 'nonsense' as 'error' })] }, 'events.0.type'],
  ])('refuses %j naming %s', async (payload, field) => {
    const res = await report(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].field).toBe(field);
  });

  it('refuses a body over 64 KB with 413', async () => {
    const res = await report({
      events: [anEvent({ message: 'x'.repeat(70 * 1024) })],
    });
    expect(res.statusCode).toBe(413);
  });

  it(`allows ${CLIENT_ERROR_REPORTS_PER_MINUTE} reports a minute per address, then 429`, async () => {
    const ip = '10.9.9.9';
    for (let i = 0; i < CLIENT_ERROR_REPORTS_PER_MINUTE; i += 1) {
      expect((await report({ events: [anEvent()] }, ip)).statusCode).toBe(200);
    }
    const refused = await report({ events: [anEvent()] }, ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe('Too many requests, please try again later');
    // Another address is not affected.
    expect((await report({ events: [anEvent()] }, '10.9.9.10')).statusCode).toBe(200);
  });
});
