import { mutationOptions, queryOptions } from '@tanstack/react-query';
import { createSshKey, deleteSshKey, listSshKeys } from '../api/ssh-keys';

export const sshKeyKeys = {
  all: ['sshKeys'] as const,
  list: () => [...sshKeyKeys.all, 'list'] as const,
};

/** The signed-in user's keys: Profile lists them, Create VM offers them. */
export const sshKeyQueries = {
  list: () => queryOptions({ queryKey: sshKeyKeys.list(), queryFn: listSshKeys }),
};

export const sshKeyMutations = {
  create: () =>
    mutationOptions({ mutationFn: createSshKey, meta: { invalidates: [sshKeyKeys.list()] } }),
  delete: () =>
    mutationOptions({ mutationFn: deleteSshKey, meta: { invalidates: [sshKeyKeys.list()] } }),
};
