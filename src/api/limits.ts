import { companyLimitsResponse } from './contract/limits';
import { request } from './client';

/**
 * What the signed-in user's company may hold and may still create: every limit that applies to
 * it (its reseller's, its own, the operator's quotas per region), each with what is left.
 */
export const listLimits = () => request('get', 'limits', companyLimitsResponse).then((r) => r.data);
