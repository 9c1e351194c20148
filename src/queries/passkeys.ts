import { mutationOptions, queryOptions } from '@tanstack/react-query';
import { deletePasskey, listPasskeys, renamePasskey } from '../api/passkeys';
import { secondFactorKeys } from './second-factor';

export const passkeyKeys = {
  all: ['passkeys'] as const,
  list: () => [...passkeyKeys.all, 'list'] as const,
};

export const passkeyQueries = {
  list: () => queryOptions({ queryKey: passkeyKeys.list(), queryFn: listPasskeys }),
};

// Whether the user has a passkey is part of their second factors' status too.
const invalidates = [passkeyKeys.list(), secondFactorKeys.all];

export const passkeyMutations = {
  /** Registering runs the browser's WebAuthn call first: loaded when it is used. */
  create: () =>
    mutationOptions({
      mutationFn: (name: string) =>
        import('../api/passkey-ceremonies').then(({ registerPasskey }) => registerPasskey(name)),
      meta: { invalidates },
    }),
  rename: () => mutationOptions({ mutationFn: renamePasskey, meta: { invalidates } }),
  delete: () => mutationOptions({ mutationFn: deletePasskey, meta: { invalidates } }),
};
