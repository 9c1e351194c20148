import type { MailMessage } from './transport';

const CODE_LIFETIME = '10 minutes';

/** The console routes these links open (`publicUrl` ends with a slash). */
export const resetPasswordLink = (publicUrl: string, token: string, userId: number) =>
  `${publicUrl}resetPassword?token=${encodeURIComponent(token)}&id=${encodeURIComponent(userId)}`;

export const activationLink = (publicUrl: string, token: string, userId: number) =>
  `${publicUrl}confirmNewUser?token=${encodeURIComponent(token)}&id=${encodeURIComponent(userId)}`;

export function signInCodeMail(to: string, brand: string, code: string): MailMessage {
  return {
    to,
    // The code stays out of the subject: subjects show up in notifications and mail logs.
    subject: `Your ${brand} sign-in code`,
    text: [
      `Your ${brand} sign-in code is: ${code}`,
      '',
      `It expires in ${CODE_LIFETIME} and works once, in the browser where you signed in.`,
      '',
      'If you did not try to sign in, someone may know your password: please change it.',
    ].join('\n'),
  };
}

export function resetPasswordMail(to: string, brand: string, link: string): MailMessage {
  return {
    to,
    subject: `Reset your ${brand} password`,
    text: [
      `Someone asked to reset the password of your ${brand} account.`,
      '',
      'Choose a new password here (the link works once, for one hour):',
      link,
      '',
      'If it was not you, ignore this e-mail; your password stays as it is.',
    ].join('\n'),
  };
}

export function activationMail(to: string, brand: string, link: string): MailMessage {
  return {
    to,
    subject: `Activate your ${brand} account`,
    text: [
      `Your ${brand} account is waiting for you.`,
      '',
      'Choose your name and password here (the link works once, for seven days):',
      link,
    ].join('\n'),
  };
}

export interface SupportMailInput {
  to: string;
  brand: string;
  sender: { name: string; email: string; companyName: string; userId: number };
  messageId: number;
  sentAt: Date;
  message: string;
}

/** A Support page message for the support team; answering it goes to the sender. */
export function supportMail(input: SupportMailInput): MailMessage {
  const { sender } = input;
  return {
    to: input.to,
    replyTo: sender.email,
    // The message stays out of the subject: subjects end up in logs.
    subject: `Support request from ${sender.name} (${sender.companyName})`,
    text: [
      `A user sent this message from the ${input.brand} console's Support page.`,
      '',
      `From: ${sender.name} <${sender.email}>`,
      `Company: ${sender.companyName}`,
      `User id: ${sender.userId}`,
      `Sent: ${input.sentAt.toISOString()}`,
      `Reference: support message ${input.messageId}`,
      '',
      'Message:',
      '',
      input.message,
      '',
      '--',
      'Reply to this e-mail to answer the user directly.',
    ].join('\n'),
  };
}

export interface WebhookDisabledMailInput {
  to: string;
  brand: string;
  url: string;
  eventId: number;
  reason: string;
  /** Where the company's webhooks are managed. */
  consoleUrl: string;
}

/** To each of the company's Admins: a webhook stopped after an event failed for a day. */
export function webhookDisabledMail(input: WebhookDisabledMailInput): MailMessage {
  return {
    to: input.to,
    subject: `A ${input.brand} webhook was disabled`,
    text: [
      `${input.brand} could not deliver event ${input.eventId} to this webhook for 24 hours,`,
      'so it was disabled and sends nothing more:',
      '',
      input.url,
      '',
      `The last attempt failed with: ${input.reason}`,
      '',
      'Its delivery log shows every attempt. Once the receiver works again, add the webhook anew:',
      input.consoleUrl,
    ].join('\n'),
  };
}
