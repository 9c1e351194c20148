import type { TestServer } from './harness';
import { codeIn, lastMailTo } from './mail';
import { TEST_PASSWORD } from './seed';

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** POST /auth/login; the token is the one of the Authorization answer header. */
export async function logIn(
  server: TestServer,
  email: string,
  options: { password?: string; rememberMe?: boolean } = {},
) {
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email, password: options.password ?? TEST_PASSWORD, rememberMe: options.rememberMe },
  });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  const token = res.headers.authorization?.toString().replace(/^Bearer /, '') ?? '';
  return { res, token, code: codeIn(lastMailTo(server, email)) };
}

export const submitCode = (server: TestServer, token: string, code: string) =>
  server.app.inject({
    method: 'POST',
    url: '/api/v1/auth/mfa',
    headers: bearer(token),
    payload: { code },
  });

/** Password, then the code from the outbox: a verified session. */
export async function signIn(
  server: TestServer,
  email: string,
  options: { password?: string; rememberMe?: boolean } = {},
) {
  const { token, code } = await logIn(server, email, options);
  const res = await submitCode(server, token, code);
  if (res.statusCode !== 200) throw new Error(`code refused: ${res.statusCode} ${res.body}`);
  return { token, user: res.json().data.user };
}
