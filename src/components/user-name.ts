import type { User } from '../api/contract/auth';

type Named = Pick<User, 'firstName' | 'lastName' | 'email'>;

/** "First Last", or the e-mail of a user who has not given a name yet (an invited user). */
export const fullName = (user: Named) => `${user.firstName} ${user.lastName}`.trim() || user.email;

export const initials = (user: Named) =>
  (user.firstName.charAt(0) + user.lastName.charAt(0) || user.email.charAt(0)).toUpperCase();
