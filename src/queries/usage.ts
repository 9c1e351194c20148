import { keepPreviousData, mutationOptions, queryOptions } from '@tanstack/react-query';
import { getUsage, getUsageCsv, type UsageMonth } from '../api/usage';

/** The reseller's usage for billing (`/reseller/usage`), a month at a time. */
export const usageKeys = {
  all: ['usage'] as const,
  month: (query: UsageMonth) => [...usageKeys.all, 'month', query] as const,
};

export const usageQueries = {
  // The month shown stays while another one loads (the picker does not empty the card).
  month: (query: UsageMonth) =>
    queryOptions({
      queryKey: usageKeys.month(query),
      queryFn: () => getUsage(query),
      placeholderData: keepPreviousData,
    }),
};

export const usageMutations = {
  // Reads, changes nothing: a mutation for its pending and error states, and so that a second
  // click while the first file is on its way is refused by the button rather than sent.
  downloadCsv: () => mutationOptions({ mutationFn: getUsageCsv }),
};
