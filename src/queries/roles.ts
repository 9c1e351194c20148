import { mutationOptions, queryOptions } from '@tanstack/react-query';
import { listRoles, updateUserRoleForTeam } from '../api/roles';
import { permissionKeys } from './permissions';
import { teamKeys } from './teams';
import { userKeys } from './users';

export const roleKeys = {
  all: ['roles'] as const,
};

export const roleQueries = {
  /** Fixed for the life of the server: fetched once per session. */
  list: () => queryOptions({ queryKey: roleKeys.all, queryFn: listRoles, staleTime: Infinity }),
};

export const roleMutations = {
  updateForTeam: () =>
    mutationOptions({
      mutationFn: updateUserRoleForTeam,
      meta: { invalidates: [teamKeys.all, userKeys.all, permissionKeys.all] },
    }),
};
