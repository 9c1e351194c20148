import type { User } from '../../../src/api/contract/auth';

/** A signed-in user as the API sends it (dates as ISO strings on the wire). */
export const aUser = (overrides: Partial<User> = {}) => ({
  id: 7,
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  createdAt: '2026-01-02T03:04:05.000Z',
  isAdmin: true,
  isReseller: false,
  forcePasswordReset: false,
  resetKey: null,
  resellerEmail: null,
  companyName: 'Analytical Engines',
  logoUrl: null,
  resellerName: null,
  tabLogoUrl: null,
  primaryColor: null,
  orderUrls: { newCustomer: null, accountChanges: null },
  ...overrides,
  ...(overrides.createdAt ? { createdAt: overrides.createdAt.toISOString() } : {}),
});
