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
