import { z } from './zod';
import { emptyEnvelope } from './envelope';

export const SUPPORT_MESSAGE_MAX = 5000;
/** Messages a user may send in SUPPORT_WINDOW_MINUTES (429 beyond). */
export const SUPPORT_MESSAGES_PER_WINDOW = 5;
export const SUPPORT_WINDOW_MINUTES = 10;

export const supportMessages = {
  required: 'Please enter a message',
  tooLong: `Message must not exceed ${SUPPORT_MESSAGE_MAX} characters`,
  controlCharacters: 'Message must not contain control characters',
  sent: 'Your message has been sent to our support team',
  rateLimited: `You have sent ${SUPPORT_MESSAGES_PER_WINDOW} messages in the last ${SUPPORT_WINDOW_MINUTES} minutes. Please wait a few minutes before sending another.`,
  mailFailed: 'Your message could not be sent right now. Please try again later.',
} as const;

// Tabs and line breaks belong in a message; other control characters (NUL above all, which
// PostgreSQL cannot store) do not.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

export const supportMessageSchema = z.string({ error: supportMessages.required }).check(
  z.trim(),
  z.minLength(1, { error: supportMessages.required, abort: true }),
  z.maxLength(SUPPORT_MESSAGE_MAX, { error: supportMessages.tooLong, abort: true }),
  z.refine((value) => !CONTROL_CHARACTERS.test(value), supportMessages.controlCharacters),
);

/** `POST /support/sendEmail`. */
export const sendSupportMessageBody = z.object({ message: supportMessageSchema });
export type SendSupportMessageBody = z.input<typeof sendSupportMessageBody>;
export const sendSupportMessageResponse = emptyEnvelope;
