import type { TestServer } from './harness';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

function decodeQuotedPrintable(body: string): string {
  const bytes = body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** Enough of RFC 5322 for the single-part text messages the server sends. */
export function parseMail(raw: string): Mail {
  const split = raw.indexOf('\n\n');
  const head = raw.slice(0, split).replace(/\n[ \t]+/g, ' ');
  const body = raw.slice(split + 2);
  const header = (name: string) =>
    head.match(new RegExp(`^${name}:\\s*(.*)$`, 'im'))?.[1]?.trim() ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(body)
      : encoding === 'base64'
        ? Buffer.from(body, 'base64').toString('utf8')
        : body;
  return { to: header('To'), subject: header('Subject'), text };
}

export const mailsTo = (server: TestServer, address: string) =>
  server
    .outbox()
    .map(parseMail)
    .filter((mail) => mail.to === address);

export function lastMailTo(server: TestServer, address: string): Mail {
  const mail = mailsTo(server, address).at(-1);
  if (!mail) throw new Error(`no e-mail to ${address}`);
  return mail;
}

export function codeIn(mail: Mail): string {
  const code = mail.text.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code in: ${mail.text}`);
  return code;
}

export function linkIn(mail: Mail): URL {
  const link = mail.text.match(/https?:\/\/\S+/)?.[0];
  if (!link) throw new Error(`no link in: ${mail.text}`);
  return new URL(link);
}
