import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authMessages } from '../../src/api/contract/auth';
import { messages } from '../../src/api/contract/validation';
import { PUBLIC_BODY_LIMIT } from '../../server/routes/auth-rate-limit';
import { startVmWorld } from './support/vm-world';
import { bearer, logIn, signIn } from './support/sign-in';

/**
 * What a stranger, or a page of another site, can send: oversized sign-in bodies, a plain HTML
 * form's post with the victim's cookie; and what a cache may keep of the answers.
 */
let world: Awaited<ReturnType<typeof startVmWorld>>;
let vmId: number;
let adminToken: string;
let origin: string;

beforeAll(async () => {
  world = await startVmWorld();
  ({ token: adminToken } = await signIn(world.server, 'admin@a.test'));
  origin = world.server.config.publicOrigin;
});
afterAll(() => world.server.close());

const send = (options: {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  payload?: string | object;
}) =>
  world.server.app.inject({
    method: options.method ?? 'POST',
    url: `/api/v1${options.url}`,
    headers: options.headers,
    ...(options.payload === undefined ? {} : { payload: options.payload }),
  });

const cookie = (token: string) => ({ cookie: `launchpad_session=${token}` });
const vmStatus = async () => {
  const res = await send({
    method: 'GET',
    url: `/virtualMachines/details/${vmId}`,
    headers: bearer(adminToken),
  });
  return (res.json() as { data: { status: string } }).data.status;
};

describe('an e-mail address made to backtrack', () => {
  // 100,000 dots: the earlier pattern spent about 14 s on it, with every tenant waiting.
  const dots = (n: number) => `a@${'.'.repeat(n)}@`;

  it.each([
    ['/auth/login', { password: 'whatever' }],
    ['/users/forgotPassword', {}],
    ['/users/register', {}],
  ])('%s refuses a body past the sign-in limit before reading it', async (url, rest) => {
    const res = await send({
      url,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: dots(100_000), ...rest }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ data: null, message: 'Request body is too large' });
  });

  it('names the field when the address fits the body but not the rules', async () => {
    const email = dots(PUBLIC_BODY_LIMIT - 100);
    const res = await send({ url: '/auth/login', payload: { email, password: 'whatever' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      message: `email: ${messages.emailFormat}`,
      errors: [{ field: 'email', message: messages.emailFormat }],
    });
  });

  it('still signs in with an ordinary address', async () => {
    const { res } = await logIn(world.server, 'viewer@a.test');
    expect(res.statusCode).toBe(200);
  });
});

describe('a request from another site with the session cookie', () => {
  beforeAll(async () => {
    vmId = await world.runningVm('guarded');
  });

  it('cannot post a plain HTML form (text/plain)', async () => {
    const form = { 'content-type': 'text/plain', ...cookie(adminToken) };
    const crossSite = await send({
      url: `/virtualMachines/stop/${vmId}`,
      headers: { ...form, origin: 'https://shop.console.test' },
      payload: 'x=1',
    });
    expect(crossSite.statusCode).toBe(403);
    // Not even from the console's own origin: no route reads a text/plain body.
    const sameOrigin = await send({
      url: `/virtualMachines/stop/${vmId}`,
      headers: { ...form, origin },
      payload: 'x=1',
    });
    expect(sameOrigin.statusCode).toBe(415);
    expect(await vmStatus()).toBe('Running');
  });

  it.each([
    ['a foreign Origin', { origin: 'https://shop.console.test' }],
    ['a cross-site fetch', { 'sec-fetch-site': 'same-site' }],
    ['neither header', {}],
  ])('is refused with %s', async (_name, headers) => {
    const res = await send({
      url: `/virtualMachines/stop/${vmId}`,
      headers: { ...cookie(adminToken), ...headers },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ data: null, message: authMessages.crossSite });
    expect(await vmStatus()).toBe('Running');
  });

  it('is answered from the console’s own origin, and for reading from anywhere', async () => {
    const read = await send({
      method: 'GET',
      url: `/virtualMachines/details/${vmId}`,
      headers: { ...cookie(adminToken), origin: 'https://evil.example' },
    });
    expect(read.statusCode).toBe(200);
    const renamed = await send({
      method: 'PUT',
      url: `/virtualMachines/edit/${vmId}`,
      headers: { ...cookie(adminToken), origin },
      payload: { name: 'guarded-2' },
    });
    expect(renamed.statusCode).toBe(200);
    const sameOrigin = await send({
      method: 'PUT',
      url: `/virtualMachines/edit/${vmId}`,
      headers: { ...cookie(adminToken), 'sec-fetch-site': 'same-origin' },
      payload: { name: 'guarded' },
    });
    expect(sameOrigin.statusCode).toBe(200);
  });

  it('is answered with the bearer header, whatever the origin', async () => {
    const res = await send({
      method: 'PUT',
      url: `/virtualMachines/edit/${vmId}`,
      headers: { ...bearer(adminToken), origin: 'https://scripts.example' },
      payload: { name: 'guarded' },
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('answers holding a secret', () => {
  it.each([
    ['the VM’s password', () => `/virtualMachines/getPassword/${vmId}`],
    ['the VM’s private key', () => `/virtualMachines/getAccessKey/${vmId}`],
    ['the console link', () => `/virtualMachines/getConsole/${vmId}`],
  ])('%s is never stored by a cache', async (_name, url) => {
    const res = await send({ method: 'GET', url: url(), headers: bearer(adminToken) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('the session token of a sign-in is never stored by a cache', async () => {
    const { res } = await logIn(world.server, 'viewer@a.test');
    expect(res.headers.authorization).toMatch(/^Bearer /);
    expect(res.headers['cache-control']).toBe('no-store');
  });
});
