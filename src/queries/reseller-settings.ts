import { mutationOptions, queryOptions } from '@tanstack/react-query';
import { getResellerSettings, updateResellerSettings } from '../api/reseller-settings';
import { authKeys } from './auth';

/** The reseller's own settings (`/reseller/settings`). */
export const resellerSettingsKeys = {
  all: ['resellerSettings'] as const,
  detail: () => [...resellerSettingsKeys.all, 'detail'] as const,
};

export const resellerSettingsQueries = {
  detail: () =>
    queryOptions({ queryKey: resellerSettingsKeys.detail(), queryFn: getResellerSettings }),
};

export const resellerSettingsMutations = {
  // The signed-in user carries the brand (name, logos, colour) and the order forms: the session
  // is read again so that the console's own colours, title and logo follow at once.
  update: () =>
    mutationOptions({
      mutationFn: updateResellerSettings,
      meta: { invalidates: [resellerSettingsKeys.all, authKeys.all] },
    }),
};
