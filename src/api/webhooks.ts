import {
  createWebhookResponse,
  listWebhookDeliveriesResponse,
  listWebhooksResponse,
  webhookActionResponse,
  type CreateWebhookBody,
} from './contract/webhooks';
import { request } from './client';

export const listWebhooks = () =>
  request('get', 'webhooks/list', listWebhooksResponse).then((r) => r.data);

/** Answers the webhook and its signing secret: the only time the secret is ever sent. */
export const createWebhook = (body: CreateWebhookBody) =>
  request('post', 'webhooks/create', createWebhookResponse, { json: body }).then((r) => r.data);

export const deleteWebhook = (id: number) =>
  request('delete', `webhooks/delete/${id}`, webhookActionResponse);

/** Its latest delivery attempts, newest first. */
export const listWebhookDeliveries = (id: number) =>
  request('get', `webhooks/deliveries/${id}`, listWebhookDeliveriesResponse).then((r) => r.data);

/** Queues a test event; the delivery worker sends it within seconds (it shows in the log). */
export const testWebhook = (id: number) =>
  request('post', `webhooks/test/${id}`, webhookActionResponse);
