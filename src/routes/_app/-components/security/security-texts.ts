/** The Security section's error leads and shared words. */
export const securityTexts = {
  enrolError: 'Error setting up the authenticator app',
  confirmError: 'Error turning on the authenticator app',
  disableError: 'Error turning off the authenticator app',
  statusError: 'Error fetching your sign-in settings',
  policyError: 'Error saving the sign-in policy',
  policyFetchError: 'Error fetching the sign-in policy',
} as const;
