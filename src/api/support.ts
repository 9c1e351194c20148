import { sendSupportMessageResponse, type SendSupportMessageBody } from './contract/support';
import { request } from './client';

/** The Support page's message to the support team; the answer's message is shown. */
export const sendSupportMessage = (body: SendSupportMessageBody) =>
  request('post', 'support/sendEmail', sendSupportMessageResponse, { json: body });
