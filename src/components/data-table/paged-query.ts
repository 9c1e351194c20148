import type { UseQueryResult } from '@tanstack/react-query';
import { useEffect } from 'react';

interface Paged<T> {
  data: T[];
  totalPages: number;
}

/** The DataTable props that come from a paged list query: rows, pages, loading, error, refresh. */
export function pagedQueryProps<T>(query: UseQueryResult<Paged<T>>) {
  return {
    data: query.data?.data,
    totalPages: query.data?.totalPages,
    isPending: query.isPending,
    isFetching: query.isFetching,
    // A failed refresh of rows already shown is toasted by the query cache; keep the rows.
    error: query.data ? null : query.error,
    onRefresh: () => void query.refetch(),
  };
}

/**
 * Rows deleted here or elsewhere can leave the page past the last one: go to the new last page.
 * A placeholder (the previous page's rows while the next loads) says nothing about the count.
 */
export function useStayWithinPages(
  query: UseQueryResult<Paged<unknown>>,
  page: number,
  goToPage: (page: number) => void,
) {
  const lastPage = query.isPlaceholderData ? undefined : query.data?.totalPages;
  useEffect(() => {
    if (lastPage !== undefined && page > lastPage) goToPage(lastPage);
  }, [lastPage, page, goToPage]);
}
