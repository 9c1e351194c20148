import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { supportMessages as supportTable } from '../../server/db/support-schema';
import { authMessages } from '../../src/api/contract/auth';
import {
  SUPPORT_MESSAGE_MAX,
  SUPPORT_MESSAGES_PER_WINDOW,
  supportMessages,
} from '../../src/api/contract/support';
import { startTestServer, testClock, type TestServer } from './support/harness';
import { mailsTo, parseMail } from './support/mail';
import { createCompany, createUser } from './support/seed';
import { bearer, logIn, signIn } from './support/sign-in';

const SUPPORT = 'helpdesk@support.example';
const clock = testClock(new Date('2026-03-10T09:00:00Z'));
let server: TestServer;
let log = '';
const logStream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    log += chunk.toString();
    done();
  },
});
let companyId: number;

beforeAll(async () => {
  server = await startTestServer(
    { SUPPORT_EMAIL: SUPPORT },
    { clock, logStream, logLevel: 'trace' },
  );
  ({
    company: { id: companyId },
  } = await createCompany(server.database.db, {
    name: 'Acme Ltd',
    resellerName: 'Skyline Cloud',
  }));
});
afterAll(() => server.close());

const send = (token: string | undefined, payload: unknown) =>
  server.app.inject({
    method: 'POST',
    url: '/api/v1/support/sendEmail',
    headers: token ? bearer(token) : {},
    payload: payload as object,
  });

async function aSignedInUser(names = { firstName: 'Grace', lastName: 'Hopper' }) {
  const user = await createUser(server.database.db, { companyId, ...names });
  const { token } = await signIn(server, user.email);
  return { user, token };
}

const storedFor = (userId: number) =>
  server.database.db
    .select()
    .from(supportTable)
    .where(eq(supportTable.userId, userId))
    .orderBy(asc(supportTable.id));

describe('POST /support/sendEmail', () => {
  it('mails the message to SUPPORT_EMAIL with the sender, reply-to the sender, and stores it', async () => {
    const { user, token } = await aSignedInUser();
    const message = '  My VM web-01 does not boot since this morning.\nCan you look?  ';

    const res = await send(token, { message });

    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: null, message: supportMessages.sent });
    const raw = server.outbox().find((eml) => parseMail(eml).to === SUPPORT)!;
    const mail = parseMail(raw);
    expect(mail.subject).toBe('Support request from Grace Hopper (Acme Ltd)');
    expect(raw).toMatch(new RegExp(`^Reply-To: ${user.email}$`, 'im'));
    expect(mail.text).toContain(`From: Grace Hopper <${user.email}>`);
    expect(mail.text).toContain('Company: Acme Ltd');
    expect(mail.text).toContain("Skyline Cloud console's Support page");
    expect(mail.text).toContain('My VM web-01 does not boot since this morning.\nCan you look?');

    const [row] = await storedFor(user.id);
    expect(row).toMatchObject({
      companyId,
      userId: user.id,
      senderName: 'Grace Hopper',
      senderEmail: user.email,
      message: 'My VM web-01 does not boot since this morning.\nCan you look?',
    });
    expect(row!.sentAt).toEqual(clock.now());
    expect(mail.text).toContain(`Reference: support message ${row!.id}`);
  });

  it('never writes the message text to the log', async () => {
    const { token } = await aSignedInUser();
    const secretish = 'The staging database password is probably Orange-Lantern-42';

    expect((await send(token, { message: secretish })).statusCode).toBe(200);

    expect(log).toContain('"msg":"support message sent"');
    expect(log).toContain('"msg":"mail written to outbox"');
    expect(log).not.toContain('Orange-Lantern-42');
  });

  it.each([
    [{}, supportMessages.required],
    [{ message: '' }, supportMessages.required],
    [{ message: ' \n\t ' }, supportMessages.required],
    [{ message: 42 }, supportMessages.required],
    [{ message: 'x'.repeat(SUPPORT_MESSAGE_MAX + 1) }, supportMessages.tooLong],
    [{ message: 'null byte \u0000 here' }, supportMessages.controlCharacters],
  ])('refuses %j with 400 naming message, storing and mailing nothing', async (payload, text) => {
    const { user, token } = await aSignedInUser();
    const before = mailsTo(server, SUPPORT).length;

    const res = await send(token, payload);

    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ field: 'message', message: text }]);
    expect(await storedFor(user.id)).toEqual([]);
    expect(mailsTo(server, SUPPORT)).toHaveLength(before);
  });

  it('takes the longest message allowed, with its line breaks and tabs', async () => {
    const { user, token } = await aSignedInUser();
    const message = `${'a'.repeat(SUPPORT_MESSAGE_MAX - 3)}\n\tb`;
    expect((await send(token, { message })).statusCode).toBe(200);
    expect((await storedFor(user.id))[0]!.message).toBe(message);
  });

  it(`allows ${SUPPORT_MESSAGES_PER_WINDOW} messages a user in 10 minutes, then answers 429`, async () => {
    const { user, token } = await aSignedInUser();
    const other = await aSignedInUser();
    for (let i = 1; i <= SUPPORT_MESSAGES_PER_WINDOW; i += 1) {
      expect((await send(token, { message: `Question ${i}` })).statusCode).toBe(200);
    }

    const refused = await send(token, { message: 'One more' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ data: null, message: supportMessages.rateLimited });
    expect(await storedFor(user.id)).toHaveLength(SUPPORT_MESSAGES_PER_WINDOW);
    // Another user of the same company has their own allowance.
    expect((await send(other.token, { message: 'Mine' })).statusCode).toBe(200);

    clock.advance(10 * 60_000 + 1000);
    expect((await send(token, { message: 'Later on' })).statusCode).toBe(200);
  });

  it('keeps the message and answers 503 when the e-mail cannot be handed over', async () => {
    const { user, token } = await aSignedInUser();
    // A file where the outbox folder should be: the mail transport fails.
    const parked = `${server.outboxDir}.parked`;
    renameSync(server.outboxDir, parked);
    writeFileSync(server.outboxDir, 'not a folder');
    try {
      const res = await send(token, { message: 'Is anybody there?' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ data: null, message: supportMessages.mailFailed });
    } finally {
      rmSync(server.outboxDir);
      renameSync(parked, server.outboxDir);
    }
    const [row] = await storedFor(user.id);
    expect(row).toMatchObject({ message: 'Is anybody there?', sentAt: null });
    expect(log).not.toContain('Is anybody there?');
  });

  it('needs a verified session', async () => {
    const user = await createUser(server.database.db, { companyId });
    const { token: pending } = await logIn(server, user.email);

    expect((await send(undefined, { message: 'Hello' })).json()).toEqual({
      data: null,
      message: authMessages.notAuthenticated,
    });
    const unverified = await send(pending, { message: 'Hello' });
    expect(unverified.statusCode).toBe(401);
    expect(unverified.json().message).toBe(authMessages.verificationRequired);
    expect(await storedFor(user.id)).toEqual([]);
  });
});
