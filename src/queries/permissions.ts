import { mutationOptions, queryOptions } from '@tanstack/react-query';
import { assignPermissions, listTeamPermissions } from '../api/permissions';

export const permissionKeys = {
  all: ['permissions'] as const,
  team: (teamId: number) => [...permissionKeys.all, teamId] as const,
};

export const permissionQueries = {
  team: (teamId: number) =>
    queryOptions({
      queryKey: permissionKeys.team(teamId),
      queryFn: () => listTeamPermissions(teamId),
    }),
};

export const permissionMutations = {
  // Roles show in the team and user lists too; the keys are spelled out to avoid an import cycle.
  assign: () =>
    mutationOptions({
      mutationFn: assignPermissions,
      meta: { invalidates: [permissionKeys.all, ['teams'], ['users']] },
    }),
};
