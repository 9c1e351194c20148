import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/harness';
import { lastMailTo, linkIn } from './support/mail';
import { createCompany, createUser, NEW_PASSWORD, TEST_PASSWORD } from './support/seed';
import { logIn, submitCode } from './support/sign-in';

let server: TestServer;
let log = '';
const stream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    log += chunk.toString();
    done();
  },
});

beforeAll(async () => {
  server = await startTestServer({}, { logStream: stream, logLevel: 'trace' });
});
afterAll(() => server.close());

describe('the logs', () => {
  it('never hold a session token, a code, a reset token or a password', async () => {
    const { company } = await createCompany(server.database.db);
    const user = await createUser(server.database.db, { companyId: company.id });

    const { token, code } = await logIn(server, user.email);
    expect((await submitCode(server, token, code)).statusCode).toBe(200);
    const byCookie = await server.app.inject({
      method: 'GET',
      url: '/api/v1/users/me',
      headers: { cookie: `launchpad_session=${token}` },
    });
    expect(byCookie.statusCode).toBe(200);
    await server.app.inject({
      method: 'POST',
      url: '/api/v1/users/forgotPassword',
      payload: { email: user.email },
    });
    await server.settled();
    const resetToken = linkIn(lastMailTo(server, user.email)).searchParams.get('token')!;
    // The console page the e-mailed link opens is logged like any other request.
    await server.app.inject({ method: 'GET', url: `/resetPassword?token=${resetToken}&id=1` });
    const reset = await server.app.inject({
      method: 'POST',
      url: `/api/v1/users/resetPasswordFromEmail/${resetToken}`,
      payload: { id: user.id, password: NEW_PASSWORD, resetKey: resetToken },
    });
    expect(reset.statusCode).toBe(200);

    // The logs did record all of it, so the absence below means something.
    expect(log).toContain('"msg":"request completed"');
    expect(log).toContain('"msg":"signed in"');
    expect(log).toContain('"msg":"mail written to outbox"');
    expect(log).toContain('/api/v1/users/resetPasswordFromEmail/[redacted]');
    expect(log).toContain('/resetPassword?token=[redacted]&id=1');

    for (const secret of [token, resetToken, TEST_PASSWORD, NEW_PASSWORD]) {
      expect(log).not.toContain(secret);
    }
    expect(log).not.toMatch(new RegExp(`(?<!\\d)${code}(?!\\d)`));
  });
});
