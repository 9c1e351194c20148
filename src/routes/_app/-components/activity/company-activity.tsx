import { Select, Stack, Text, TextInput } from '@mantine/core';
import { useQuery, type UseQueryOptions } from '@tanstack/react-query';
import type { ActivityQuery } from '../../../../api/activity';
import type { ActivityPage } from '../../../../api/contract/activity';
import {
  activityActorTypes,
  activityOutcomes,
  activitySubjectTypes,
} from '../../../../api/contract/search-values';
import { ActivityTable } from '../../../../components/activity/activity-table';
import { outcomeLabels } from '../../../../components/activity/activity-text';
import { pagedQueryProps, useStayWithinPages } from '../../../../components/data-table/paged-query';
import { SearchInput } from '../../../../components/data-table/search-input';
import { activityQueries } from '../../../../queries/activity';
import classes from './company-activity.module.css';

export type ActivityFilters = Pick<
  ActivityQuery,
  'page' | 'search' | 'subjectType' | 'actorType' | 'outcome' | 'from' | 'to'
>;

/** Where a history is read from: a query factory's call for a page of it. */
export type ActivitySource = (
  query: ActivityQuery,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each source has its own key
) => UseQueryOptions<ActivityPage, Error, ActivityPage, any>;

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
    company: 'Company',
  }[value],
}));
const actorOptions = activityActorTypes.map((value) => ({
  value,
  label: { user: 'Users', operator: 'The operator', system: 'The system' }[value],
}));
const outcomeOptions = activityOutcomes.map((value) => ({ value, label: outcomeLabels[value] }));

/**
 * The Dashboard's Activity tab (Admins): the company's whole history, filtered by resource type,
 * actor, outcome and dates, every filter in the URL. The search and the five filters are a row of
 * their own above the table: beside its title they did not fit a desktop's width. A reseller's
 * customer page shows its customer's history with it too (another `source`, paging only).
 */
export function CompanyActivity({
  filters,
  onChange,
  source = activityQueries.list,
  withFilters = true,
  rowsPerPage = 20,
}: {
  filters: ActivityFilters;
  onChange: (patch: Partial<ActivityFilters>, options: { replace: boolean }) => void;
  /** The signed-in user's company's history unless told. */
  source?: ActivitySource;
  /** Without, the card pages only (on a page that has more to show than the history). */
  withFilters?: boolean;
  rowsPerPage?: number;
}) {
  const history = useQuery(source({ ...filters, rowsPerPage }));
  useStayWithinPages(history, filters.page, (page) => onChange({ page }, { replace: true }));
  // Any filter starts again from the first page.
  const filter = (patch: Partial<ActivityFilters>) =>
    onChange({ ...patch, page: 1 }, { replace: true });
  return (
    <Stack gap="sm">
      {withFilters && (
        <div className={classes.room}>
          <div className={classes.filters} role="search" aria-label="Filter the activity">
            <div className={classes.search}>
              <SearchInput
                value={filters.search ?? ''}
                onChange={(search) => filter({ search })}
                placeholder="Search resources and people"
              />
            </div>
            <FilterSelect
              label="Resource type"
              placeholder="All resources"
              options={subjectOptions}
              value={filters.subjectType}
              onChange={(subjectType) => filter({ subjectType })}
            />
            <FilterSelect
              label="Actor"
              placeholder="Anyone"
              options={actorOptions}
              value={filters.actorType}
              onChange={(actorType) => filter({ actorType })}
            />
            <div className={classes.outcome}>
              <FilterSelect
                label="Outcome"
                placeholder="Any outcome"
                options={outcomeOptions}
                value={filters.outcome}
                onChange={(outcome) => filter({ outcome })}
              />
            </div>
            <DateFilter label="From" value={filters.from} onChange={(from) => filter({ from })} />
            <DateFilter label="To" value={filters.to} onChange={(to) => filter({ to })} />
          </div>
        </div>
      )}
      <ActivityTable
        title="Activity"
        withSubject
        {...pagedQueryProps(history)}
        errorTitle="The activity could not be loaded"
        page={filters.page}
        onPageChange={(page) => onChange({ page }, { replace: false })}
      />
    </Stack>
  );
}

/** One filter of the history: a clearable choice, where nothing chosen means all. */
function FilterSelect<T extends string>({
  label,
  placeholder,
  options,
  value,
  onChange,
}: {
  label: string;
  placeholder: string;
  options: { value: T; label: string }[];
  value: T | undefined;
  onChange: (value: T | undefined) => void;
}) {
  return (
    <Select<T>
      aria-label={label}
      placeholder={placeholder}
      data={options}
      value={value ?? null}
      onChange={(next) => onChange(next ?? undefined)}
      clearable
    />
  );
}

/** A day bound of the history, named inside its box: a date input shows only the date's format. */
function DateFilter({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
}) {
  return (
    <TextInput
      type="date"
      aria-label={label}
      value={value ?? ''}
      onChange={(event) => onChange(event.currentTarget.value || undefined)}
      leftSection={
        <Text size="xs" c="dimmed" aria-hidden>
          {label}
        </Text>
      }
      leftSectionWidth={44}
    />
  );
}
