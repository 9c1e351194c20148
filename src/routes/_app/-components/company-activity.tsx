import { Group, Select, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ActivityQuery } from '../../../api/activity';
import {
  activityActorTypes,
  activityOutcomes,
  activitySubjectTypes,
} from '../../../api/contract/activity';
import { ActivityTable } from '../../../components/activity/activity-table';
import { outcomeLabels } from '../../../components/activity/activity-text';
import { pagedQueryProps, useStayWithinPages } from '../../../components/data-table/paged-query';
import { activityQueries } from '../../../queries/activity';

export type ActivityFilters = Pick<
  ActivityQuery,
  'page' | 'search' | 'subjectType' | 'actorType' | 'outcome' | 'from' | 'to'
>;

const ROWS = 20;

const subjectOptions = activitySubjectTypes.map((value) => ({
  value,
  label: {
    vm: 'Virtual machines',
    network: 'Networks',
    user: 'Users',
    team: 'Teams',
    session: 'Sign-ins',
  }[value],
}));
const actorOptions = activityActorTypes.map((value) => ({
  value,
  label: { user: 'Users', operator: 'The operator', system: 'The system' }[value],
}));
const outcomeOptions = activityOutcomes.map((value) => ({ value, label: outcomeLabels[value] }));

/**
 * The Dashboard's Activity tab (Admins): the company's whole history, filtered by resource type,
 * actor, outcome and dates, every filter in the URL.
 */
export function CompanyActivity({
  filters,
  onChange,
}: {
  filters: ActivityFilters;
  onChange: (patch: Partial<ActivityFilters>, options: { replace: boolean }) => void;
}) {
  const history = useQuery(activityQueries.list({ ...filters, rowsPerPage: ROWS }));
  useStayWithinPages(history, filters.page, (page) => onChange({ page }, { replace: true }));
  // Any filter starts again from the first page.
  const filter = (patch: Partial<ActivityFilters>) =>
    onChange({ ...patch, page: 1 }, { replace: true });
  return (
    <ActivityTable
      title="Activity"
      withSubject
      {...pagedQueryProps(history)}
      errorTitle="The activity could not be loaded"
      page={filters.page}
      onPageChange={(page) => onChange({ page }, { replace: false })}
      search={filters.search ?? ''}
      onSearchChange={(search) => filter({ search })}
      searchPlaceholder="Search resources and people"
      toolbar={
        <Group gap="xs" wrap="wrap">
          <Select
            aria-label="Resource type"
            placeholder="All resources"
            data={subjectOptions}
            value={filters.subjectType ?? null}
            onChange={(value) =>
              filter({ subjectType: (value ?? undefined) as ActivityFilters['subjectType'] })
            }
            clearable
            w={170}
          />
          <Select
            aria-label="Actor"
            placeholder="Anyone"
            data={actorOptions}
            value={filters.actorType ?? null}
            onChange={(value) =>
              filter({ actorType: (value ?? undefined) as ActivityFilters['actorType'] })
            }
            clearable
            w={150}
          />
          <Select
            aria-label="Outcome"
            placeholder="Any outcome"
            data={outcomeOptions}
            value={filters.outcome ?? null}
            onChange={(value) =>
              filter({ outcome: (value ?? undefined) as ActivityFilters['outcome'] })
            }
            clearable
            w={150}
          />
          <TextInput
            type="date"
            aria-label="From"
            value={filters.from ?? ''}
            onChange={(event) => filter({ from: event.currentTarget.value || undefined })}
            w={150}
          />
          <TextInput
            type="date"
            aria-label="To"
            value={filters.to ?? ''}
            onChange={(event) => filter({ to: event.currentTarget.value || undefined })}
            w={150}
          />
        </Group>
      }
    />
  );
}
