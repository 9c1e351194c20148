import type { WebhookScope } from '../../../../api/contract/webhooks';

/** The fixed leads of this screen's failures; the server's message follows each. */
export const webhookErrorLeads = {
  fetch: 'Error fetching webhooks',
  create: 'Error adding webhook',
  delete: 'Error deleting webhook',
  test: 'Error sending a test event',
  fetchDeliveries: 'Error fetching deliveries',
} as const;

export const webhookTexts = {
  adminsOnly: "Only your company's Admins manage webhooks.",
  add: 'Add webhook',
  sendTest: 'Send a test event',
} as const;

/** Whose events a webhook sends, as a reseller's staff choose it and see it listed. */
export const webhookScopeLabels: Record<WebhookScope, string> = {
  company: 'This company',
  customers: 'All customers',
};

export const webhookScopeDescriptions: Record<WebhookScope, string> = {
  company: "Your own company's events",
  customers: 'The events of every company you resell to, each naming its company',
};
