import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  sendSupportMessageBody,
  sendSupportMessageResponse,
  supportMessages,
} from '../../src/api/contract/support';
import { sendSupportMessage } from '../domain/support/support-messages';
import { HttpError } from '../http-error';
import { caller } from '../plugins/authenticate';
import type { RouteOptions } from './deps';

/** The Support page's message to the support team. */
export const supportRoutes: FastifyPluginAsyncZod<RouteOptions> = async (app, { deps }) => {
  app.post(
    '/sendEmail',
    { schema: { body: sendSupportMessageBody, response: { 200: sendSupportMessageResponse } } },
    async (request) => {
      const who = caller(request);
      const result = await sendSupportMessage(deps, who, request.body.message);
      // The text is the user's own words: it never reaches the log, only its length.
      const facts = { userId: who.userId, length: request.body.message.length };
      if (!result.sent) {
        request.log.error({ ...facts, err: result.error }, 'support message stored; e-mail failed');
        throw new HttpError(503, supportMessages.mailFailed);
      }
      request.log.info(facts, 'support message sent');
      return { data: null, message: supportMessages.sent };
    },
  );
};
