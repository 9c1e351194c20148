import { queryOptions } from '@tanstack/react-query';
import { listLimits } from '../api/limits';

/** The signed-in user's company's limits (`GET /limits`). */
export const limitKeys = {
  all: ['limits'] as const,
  company: () => [...limitKeys.all, 'company'] as const,
};

export const limitQueries = {
  company: () =>
    queryOptions({
      queryKey: limitKeys.company(),
      queryFn: listLimits,
      // What is left moves with whatever anyone in the company (or, for a reseller's shared
      // limits, another customer) creates or deletes: asked again each time a screen shows it.
      staleTime: 0,
    }),
};
