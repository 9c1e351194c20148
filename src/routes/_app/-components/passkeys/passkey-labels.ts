/** The fixed leads of this card's failures; the message follows each. */
export const passkeyErrorLeads = {
  fetch: 'Error fetching passkeys',
  add: 'Error adding passkey',
  rename: 'Error renaming passkey',
  remove: 'Error removing passkey',
} as const;
