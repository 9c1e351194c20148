import { mutationOptions, queryOptions } from '@tanstack/react-query';
import {
  createWebhook,
  deleteWebhook,
  listWebhookDeliveries,
  listWebhooks,
  testWebhook,
} from '../api/webhooks';

export const webhookKeys = {
  all: ['webhooks'] as const,
  lists: () => [...webhookKeys.all, 'list'] as const,
  deliveries: () => [...webhookKeys.all, 'deliveries'] as const,
  deliveriesOf: (id: number) => [...webhookKeys.deliveries(), id] as const,
};

/**
 * How often an open delivery log is read again: deliveries write no activity event, so the live
 * stream says nothing of them.
 */
export const DELIVERY_LOG_POLL_MS = 5_000;

export const webhookQueries = {
  list: () => queryOptions({ queryKey: webhookKeys.lists(), queryFn: listWebhooks }),
  deliveries: (id: number) =>
    queryOptions({
      queryKey: webhookKeys.deliveriesOf(id),
      queryFn: () => listWebhookDeliveries(id),
      refetchInterval: DELIVERY_LOG_POLL_MS,
    }),
};

export const webhookMutations = {
  // The answer holds the secret: forgotten as soon as nothing shows it.
  create: () =>
    mutationOptions({
      mutationFn: createWebhook,
      gcTime: 0,
      meta: { invalidates: [webhookKeys.lists()] },
    }),
  delete: () =>
    mutationOptions({ mutationFn: deleteWebhook, meta: { invalidates: [webhookKeys.lists()] } }),
  // The test is queued, not sent yet: the log is read now and then every DELIVERY_LOG_POLL_MS.
  test: () =>
    mutationOptions({ mutationFn: testWebhook, meta: { invalidates: [webhookKeys.deliveries()] } }),
};
