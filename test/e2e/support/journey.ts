import type { Page } from 'playwright-core';
import { codeIn, linkIn } from '../../server/support/mail';
import type { RunningServer } from './server-process';

export interface Credentials {
  email: string;
  password: string;
}

/** Waits for the newest e-mail to the address whose subject matches. */
export async function readMail(server: RunningServer, email: string, subject: RegExp) {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const mail = server.mailsTo(email).find((m) => subject.test(m.subject));
    if (mail) return mail;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no e-mail matching ${subject} was written to the outbox for ${email}`);
}

/** The newest sign-in code e-mailed to the address. */
export const readCode = async (server: RunningServer, email: string) =>
  codeIn(await readMail(server, email, /sign-in code/));

/** Follows the activation link e-mailed to a new account: its password and name are set. */
export async function activateAccount(
  server: RunningServer,
  credentials: Credentials,
  name: { firstName: string; lastName: string },
) {
  const link = linkIn(await readMail(server, credentials.email, /Activate your/));
  const token = encodeURIComponent(link.searchParams.get('token')!);
  const res = await fetch(`${server.url}/api/v1/users/confirmEmail/${token}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      id: Number(link.searchParams.get('id')),
      password: credentials.password,
      ...name,
    }),
  });
  if (res.status !== 200) throw new Error(`activation: ${res.status} ${await res.text()}`);
}

/** Password and e-mailed code, from the address bar onwards; ends where the code check leads. */
export async function enterCredentials(
  page: Page,
  server: RunningServer,
  base: string,
  credentials: Credentials,
) {
  await page.goto(`${server.url}${base}`);
  await page.waitForURL(`${server.url}${base}login`);
  await page.getByLabel('Email').fill(credentials.email);
  await page.getByLabel('Password', { exact: true }).fill(credentials.password);
  await page.getByRole('button', { name: 'Login' }).click();

  await page.waitForURL(`${server.url}${base}mfa`);
  await page.getByRole('heading', { name: 'Please check your email' }).waitFor();
  await page.getByLabel('Digit 1 of 6').click();
  await page.keyboard.type(await readCode(server, credentials.email));
  await page.getByRole('button', { name: 'Authenticate' }).click();
}

export async function signIn(
  page: Page,
  server: RunningServer,
  base: string,
  credentials: Credentials,
) {
  await enterCredentials(page, server, base, credentials);
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
}

/** Picks an option of a Mantine select by its label. */
export async function choose(page: Page, label: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option }).click();
}
