import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { listActivity, type ActivityQuery } from '../api/activity';

export const activityKeys = {
  all: ['activity'] as const,
  list: (query: ActivityQuery) => [...activityKeys.all, 'list', query] as const,
};

export const activityQueries = {
  list: (query: ActivityQuery) =>
    queryOptions({
      queryKey: activityKeys.list(query),
      queryFn: () => listActivity(query),
      placeholderData: keepPreviousData,
    }),
};
