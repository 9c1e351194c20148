import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createWebhookBody,
  createWebhookResponse,
  listWebhookDeliveriesResponse,
  listWebhooksResponse,
  webhookActionResponse,
  webhookIdParam,
  webhookMessages,
} from '../../src/api/contract/webhooks';
import {
  createWebhook,
  deleteWebhook,
  listWebhookDeliveries,
  listWebhooks,
  requestTestDelivery,
} from '../domain/webhooks/subscriptions';
import { caller } from '../plugins/authenticate';
import type { RouteOptions } from './deps';

/** The company's webhooks (Admins only); the delivery worker sends what they subscribe to. */
export const webhookRoutes: FastifyPluginAsyncZod<RouteOptions> = async (app, { deps }) => {
  const { db, clock, secrets, config } = deps;
  const byId = { params: webhookIdParam };

  app.post(
    '/create',
    { schema: { body: createWebhookBody, response: { 200: createWebhookResponse } } },
    async (request) => {
      const data = await createWebhook(db, caller(request), request.body, {
        secrets,
        allowPrivate: config.webhookAllowPrivate,
        now: clock.now(),
      });
      // The URL may carry a token of the receiver's in its path: only the id is logged.
      request.log.info({ webhookId: data.webhook.id }, 'webhook created');
      return { data, message: webhookMessages.created };
    },
  );

  app.get('/list', { schema: { response: { 200: listWebhooksResponse } } }, async (request) => ({
    data: await listWebhooks(db, caller(request)),
    message: 'OK',
  }));

  app.delete(
    '/delete/:id',
    { schema: { ...byId, response: { 200: webhookActionResponse } } },
    async (request) => {
      await deleteWebhook(db, caller(request), request.params.id, clock.now());
      request.log.info({ webhookId: request.params.id }, 'webhook deleted');
      return { data: null, message: webhookMessages.deleted };
    },
  );

  app.get(
    '/deliveries/:id',
    { schema: { ...byId, response: { 200: listWebhookDeliveriesResponse } } },
    async (request) => ({
      data: await listWebhookDeliveries(db, caller(request), request.params.id),
      message: 'OK',
    }),
  );

  app.post(
    '/test/:id',
    { schema: { ...byId, response: { 200: webhookActionResponse } } },
    async (request) => {
      await requestTestDelivery(db, caller(request), request.params.id, clock.now());
      return { data: null, message: webhookMessages.testQueued };
    },
  );
};
