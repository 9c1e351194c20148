import { Group, Select, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ActivityQuery } from '../../../../api/activity';
import {
  activityActorTypes,
  activityOutcomes,
  activitySubjectTypes,
} from '../../../../api/contract/search-values';
import { ActivityTable } from '../../../../components/activity/activity-table';
import { outcomeLabels } from '../../../../components/activity/activity-text';
import { pagedQueryProps, useStayWithinPages } from '../../../../components/data-table/paged-query';
import { activityQueries } from '../../../../queries/activity';

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
    apiToken: 'API tokens',
    webhook: 'Webhooks',
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
          <FilterSelect
            label="Resource type"
            placeholder="All resources"
            options={subjectOptions}
            value={filters.subjectType}
            onChange={(subjectType) => filter({ subjectType })}
            width={170}
          />
          <FilterSelect
            label="Actor"
            placeholder="Anyone"
            options={actorOptions}
            value={filters.actorType}
            onChange={(actorType) => filter({ actorType })}
            width={150}
          />
          <FilterSelect
            label="Outcome"
            placeholder="Any outcome"
            options={outcomeOptions}
            value={filters.outcome}
            onChange={(outcome) => filter({ outcome })}
            width={150}
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

/** One filter of the history: a clearable choice, where nothing chosen means all. */
function FilterSelect<T extends string>({
  label,
  placeholder,
  options,
  value,
  onChange,
  width,
}: {
  label: string;
  placeholder: string;
  options: { value: T; label: string }[];
  value: T | undefined;
  onChange: (value: T | undefined) => void;
  width: number;
}) {
  return (
    <Select<T>
      aria-label={label}
      placeholder={placeholder}
      data={options}
      value={value ?? null}
      onChange={(next) => onChange(next ?? undefined)}
      clearable
      w={width}
    />
  );
}
