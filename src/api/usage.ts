import { z } from './contract/zod';
import { usageResponse } from './contract/usage';
import { request } from './client';

/** A month's usage as the console asks for it: one customer's, or all of the reseller's. */
export interface UsageMonth {
  /** `YYYY-MM`, a calendar month in UTC. */
  month: string;
  companyId?: number;
}

/** Hours each VM existed and ran, per size, and public-IP hours, per customer, in a month. */
export const getUsage = ({ month, companyId }: UsageMonth) =>
  request('get', 'reseller/usage', usageResponse, {
    searchParams: { month, companyId, format: 'json' },
  }).then((r) => r.data);

/** The same month as the CSV a billing system imports (docs/billing.md): its text, to save. */
export const getUsageCsv = ({ month, companyId }: UsageMonth) =>
  request('get', 'reseller/usage', z.string(), {
    searchParams: { month, companyId, format: 'csv' },
  });
