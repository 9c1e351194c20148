import { linkIn } from '../../server/support/mail';
import type { ServerProcess } from './server-process';

export interface Credentials {
  email: string;
  password: string;
}

/** One call of a signed-in session; any answer but 200 throws. */
export type ApiCall = <T>(method: string, path: string, body?: unknown) => Promise<T>;

async function request(
  api: string,
  token: string | undefined,
  method: string,
  path: string,
  body?: unknown,
) {
  const res = await fetch(`${api}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return { res, json: JSON.parse(text) as { data: unknown } };
}

/** Signs in as a user would: the password, then the code e-mailed to the outbox. */
export async function signIn(server: ServerProcess, credentials: Credentials): Promise<ApiCall> {
  const before = server.mailsTo(credentials.email).length;
  const { res } = await request(server.api, undefined, 'POST', '/auth/login', credentials);
  const token = res.headers.get('authorization')!.replace(/^Bearer /, '');
  const code = await server.signInCode(credentials.email, before);
  await request(server.api, token, 'POST', '/auth/mfa', { code });
  return async <T>(method: string, path: string, body?: unknown) =>
    (await request(server.api, token, method, path, body)).json.data as T;
}

/** Calls with the operator's token (the imports). */
export const operatorCall =
  (server: ServerProcess, operatorToken: string) =>
  async <T>(path: string, body: unknown) =>
    (await request(server.api, operatorToken, 'POST', path, body)).json.data as T;

/** Follows the activation link e-mailed to a new account, setting its password and name. */
export async function activate(
  server: ServerProcess,
  credentials: Credentials,
  name: { firstName: string; lastName: string },
) {
  let mail;
  for (let attempt = 0; attempt < 100 && !mail; attempt += 1) {
    mail = server.mailsTo(credentials.email).find((m) => /Activate your/.test(m.subject));
    if (!mail) await new Promise((r) => setTimeout(r, 100));
  }
  if (!mail) throw new Error(`no activation e-mail for ${credentials.email}`);
  const link = linkIn(mail);
  const token = encodeURIComponent(link.searchParams.get('token')!);
  await request(server.api, undefined, 'POST', `/users/confirmEmail/${token}`, {
    id: Number(link.searchParams.get('id')),
    password: credentials.password,
    ...name,
  });
}

/** Polls until `check` answers true; throws after `seconds`. */
export async function eventually(check: () => Promise<boolean>, seconds: number, what: string) {
  const deadline = Date.now() + seconds * 1000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${seconds} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
