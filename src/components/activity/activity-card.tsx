import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ActivityQuery } from '../../api/activity';
import { pagedQueryProps } from '../data-table/paged-query';
import { activityQueries } from '../../queries/activity';
import { ActivityTable } from './activity-table';

const ROWS = 5;

/** The Activity card of a VM's or a network's page: its history, newest first, five at a time. */
export function ActivityCard({
  filter,
}: {
  filter: Pick<ActivityQuery, 'subjectType' | 'subjectId' | 'networkId'>;
}) {
  const [page, setPage] = useState(1);
  const history = useQuery(activityQueries.list({ ...filter, page, rowsPerPage: ROWS }));
  return (
    <ActivityTable
      title="Activity"
      {...pagedQueryProps(history)}
      // The live events keep it current; the page's own Refresh is the one on the page.
      onRefresh={undefined}
      errorTitle="The activity could not be loaded"
      page={page}
      onPageChange={setPage}
    />
  );
}
