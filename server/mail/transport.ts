import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import addressparser from 'nodemailer/lib/addressparser';
import type { Logger } from 'pino';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Where answers go (a support message: its sender). */
  replyTo?: string;
  /**
   * The sender's display name instead of MAIL_FROM's (a reseller's, on mail to its customers),
   * with MAIL_FROM's address: the mail server vouches for that one only.
   */
  fromName?: string;
}

/** MAIL_FROM, or its address under the message's own display name. */
export function senderOf(from: string, fromName: string | undefined) {
  const address = addressparser(from, { flatten: true })[0]?.address;
  return fromName && address ? { name: fromName, address } : from;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * SMTP when `smtpUrl` is set; otherwise each message becomes an .eml file in `outboxDir`.
 * The log line names the recipient and subject only: bodies carry codes and links.
 */
export function createMailer(options: {
  smtpUrl: string | undefined;
  from: string;
  outboxDir: string;
  logger: Pick<Logger, 'info'>;
}): Mailer {
  const { smtpUrl, from, outboxDir, logger } = options;
  if (smtpUrl) {
    const transport = nodemailer.createTransport(smtpUrl);
    return {
      async send({ fromName, ...message }) {
        await transport.sendMail({ from: senderOf(from, fromName), ...message });
        logger.info({ to: message.to, subject: message.subject }, 'mail sent');
      },
    };
  }
  const transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  });
  return {
    async send({ fromName, ...message }) {
      const info = await transport.sendMail({ from: senderOf(from, fromName), ...message });
      await mkdir(outboxDir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      const file = path.join(outboxDir, name);
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      logger.info({ to: message.to, subject: message.subject, file }, 'mail written to outbox');
    },
  };
}
