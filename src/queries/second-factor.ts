import { mutationOptions, queryOptions } from '@tanstack/react-query';
import {
  confirmTotp,
  disableTotp,
  enrollTotp,
  fetchSecondFactorPolicy,
  fetchSecondFactorStatus,
  saveSecondFactorPolicy,
} from '../api/second-factor';

export const secondFactorKeys = {
  all: ['secondFactor'] as const,
  status: () => [...secondFactorKeys.all, 'status'] as const,
  policy: () => [...secondFactorKeys.all, 'policy'] as const,
};

export const secondFactorQueries = {
  /** The caller's app, passkey and recovery codes, and whether the company holds them at enrolment. */
  status: () =>
    queryOptions({ queryKey: secondFactorKeys.status(), queryFn: fetchSecondFactorStatus }),
  policy: () =>
    queryOptions({ queryKey: secondFactorKeys.policy(), queryFn: fetchSecondFactorPolicy }),
};

// Each change alters what the status says (and the policy's own read).
export const secondFactorMutations = {
  // The answer holds the secret: forgotten as soon as nothing shows it.
  enroll: () => mutationOptions({ mutationFn: enrollTotp, gcTime: 0 }),
  confirm: () =>
    mutationOptions({
      mutationFn: confirmTotp,
      gcTime: 0,
      meta: { invalidates: [secondFactorKeys.status()] },
    }),
  disable: () =>
    mutationOptions({
      mutationFn: disableTotp,
      meta: { invalidates: [secondFactorKeys.status()] },
    }),
  savePolicy: () =>
    mutationOptions({
      mutationFn: saveSecondFactorPolicy,
      meta: { invalidates: [secondFactorKeys.all] },
    }),
};
