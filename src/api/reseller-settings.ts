import type { z } from './contract/zod';
import {
  resellerSettingsResponse,
  updateResellerSettingsResponse,
  type updateResellerSettingsBody,
} from './contract/reseller-settings';
import { request } from './client';

/** The settings as the console sends them: the contract's parse of the form (trimmed, blanks null). */
export type ResellerSettingsUpdate = z.output<typeof updateResellerSettingsBody>;

/** The reseller's brand, support e-mail, order forms and domains (its staff). */
export const getResellerSettings = () =>
  request('get', 'reseller/settings', resellerSettingsResponse).then((r) => r.data);

/** Replaces every setting (`domains` is the whole list; its staff's Admins); answers the result. */
export const updateResellerSettings = (body: ResellerSettingsUpdate) =>
  request('put', 'reseller/settings', updateResellerSettingsResponse, { json: body });
