import { keepPreviousData, mutationOptions, queryOptions } from '@tanstack/react-query';
import type { ActivityQuery } from '../api/activity';
import type { LimitEntry } from '../api/contract/limits';
import {
  createCustomer,
  getCustomer,
  listCustomerActivity,
  listCustomers,
  resumeCustomer,
  suspendCustomer,
  updateCustomerLimits,
  type CustomerListQuery,
} from '../api/customers';

/** A reseller's customer companies (`/reseller/companies/…`). */
export const customerKeys = {
  all: ['customers'] as const,
  lists: () => [...customerKeys.all, 'list'] as const,
  list: (query: CustomerListQuery) => [...customerKeys.lists(), query] as const,
  details: () => [...customerKeys.all, 'detail'] as const,
  detail: (id: number) => [...customerKeys.details(), id] as const,
  // Under the customer's details: what changes the customer (suspension, limits) refreshes it.
  activity: (id: number, query: ActivityQuery) =>
    [...customerKeys.detail(id), 'activity', query] as const,
};

export const customerQueries = {
  list: (query: CustomerListQuery) =>
    queryOptions({
      queryKey: customerKeys.list(query),
      queryFn: () => listCustomers(query),
      placeholderData: keepPreviousData,
    }),
  detail: (id: number) =>
    queryOptions({ queryKey: customerKeys.detail(id), queryFn: () => getCustomer(id) }),
  activity: (id: number, query: ActivityQuery) =>
    queryOptions({
      queryKey: customerKeys.activity(id, query),
      queryFn: () => listCustomerActivity(id, query),
      placeholderData: keepPreviousData,
    }),
};

export const customerMutations = {
  // A new company shows in the lists; it has no details page cached yet.
  create: () =>
    mutationOptions({ mutationFn: createCustomer, meta: { invalidates: [customerKeys.lists()] } }),
  // The state shows in the lists and on the customer's page.
  suspend: () =>
    mutationOptions({ mutationFn: suspendCustomer, meta: { invalidates: [customerKeys.all] } }),
  resume: () =>
    mutationOptions({ mutationFn: resumeCustomer, meta: { invalidates: [customerKeys.all] } }),
  // Limits show on the customer's page only.
  updateLimits: (id: number) =>
    mutationOptions({
      mutationFn: (limits: LimitEntry[]) => updateCustomerLimits(id, limits),
      meta: { invalidates: [customerKeys.detail(id)] },
    }),
};
