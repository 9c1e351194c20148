import { mutationOptions, queryOptions } from '@tanstack/react-query';
import {
  deleteAllSessions,
  deleteOtherSessions,
  deleteSession,
  listSessions,
} from '../api/sessions';

export const sessionKeys = {
  all: ['sessions'] as const,
  list: () => [...sessionKeys.all, 'list'] as const,
};

export const sessionQueries = {
  list: () => queryOptions({ queryKey: sessionKeys.list(), queryFn: listSessions }),
};

export const sessionMutations = {
  delete: () =>
    mutationOptions({ mutationFn: deleteSession, meta: { invalidates: [sessionKeys.list()] } }),
  deleteOthers: () =>
    mutationOptions({
      mutationFn: deleteOtherSessions,
      meta: { invalidates: [sessionKeys.list()] },
    }),
  deleteAll: () => mutationOptions({ mutationFn: deleteAllSessions }),
};
