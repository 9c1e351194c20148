import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ListTeamsQuery } from '../../../../api/contract/teams';
import { SEARCH_DEBOUNCE_MS } from '../../../../components/data-table/search-input';
import { DROPDOWN_DEFAULTS, useBoundField } from '../../../../components/dropdown';
import { managementErrorLeads, withLead } from '../../../../components/error-text';
import { teamQueries } from '../../../../queries/teams';

/** The first option: no team. */
export const NO_TEAM_LABEL = 'Select a team';
const NO_TEAM = 0;
/** Spec section 9: the dropdown loads page 1 with 10 teams, searched on the server. */
export const TEAM_PICKER_PAGE: ListTeamsQuery = { page: 1, rowsPerPage: 10, search: '' };

type Team = { id: number; name: string };

/**
 * Team Assignment: a searchable dropdown of the caller's teams. What is typed searches the server
 * (page 1, 10 teams), so teams beyond the first ten can be found; the current team stays listed.
 */
export function TeamSelectField({ initialTeam }: { initialTeam: Team | null }) {
  const { field, value, error } = useBoundField<number | null>();
  // The chosen team's name, which the loaded page may not hold.
  const [chosen, setChosen] = useState<Team | null>(initialTeam);
  const chosenLabel = chosen?.name ?? NO_TEAM_LABEL;
  const [searchValue, setSearchValue] = useState(chosenLabel);
  // The box shows the chosen label when not typing: that is not a search.
  const typed = searchValue === chosenLabel ? '' : searchValue.trim();
  const [search] = useDebouncedValue(typed, SEARCH_DEBOUNCE_MS);
  const teams = useQuery(teamQueries.list({ ...TEAM_PICKER_PAGE, search }));

  const loaded = teams.data?.data ?? [];
  const listed =
    chosen && !loaded.some((team) => team.id === chosen.id) ? [chosen, ...loaded] : loaded;
  const data = [
    { value: NO_TEAM, label: NO_TEAM_LABEL },
    ...listed.map((team) => ({ value: team.id, label: team.name })),
  ];

  return (
    <Select<number>
      {...DROPDOWN_DEFAULTS}
      label="Team Assignment"
      name={field.name}
      data-field={field.name}
      data={data}
      value={value ?? NO_TEAM}
      onChange={(next, option) => {
        const teamId = next ? next : null;
        setChosen(teamId && option ? { id: teamId, name: option.label } : null);
        field.handleChange(teamId);
      }}
      onBlur={field.handleBlur}
      searchable
      searchValue={searchValue}
      onSearchChange={setSearchValue}
      // The server has searched already; the list shows what it found.
      filter={({ options }) => options}
      allowDeselect={false}
      error={
        error ?? (teams.error ? withLead(managementErrorLeads.fetchTeams, teams.error) : undefined)
      }
    />
  );
}
