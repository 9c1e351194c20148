import { Loader, MultiSelect, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { memo, useState, type ReactNode } from 'react';
import { ALL_TEAMS, teamQueries } from '../queries/teams';
import { SEARCH_DEBOUNCE_MS } from './data-table/search-input';
import { DROPDOWN_DEFAULTS } from './dropdown';
import { managementErrorLeads, withLead } from './error-text';

type Team = { id: number; name: string };

/**
 * The teams matching what is typed, asked of the server 200 ms after the typing stops: a company
 * may have thousands of teams, more than one page holds, and any of them can be found by name.
 */
function useTeamSearch(typed: string, rowsPerPage: number) {
  const [search] = useDebouncedValue(typed.trim(), SEARCH_DEBOUNCE_MS);
  const teams = useQuery(teamQueries.list({ ...ALL_TEAMS, rowsPerPage, search }));
  const error = teams.error ? withLead(managementErrorLeads.fetchTeams, teams.error) : undefined;
  const loading = teams.isFetching ? <Loader size="xs" aria-label="Loading teams" /> : undefined;
  return { found: teams.data?.data ?? [], error, loading };
}

/** A team chosen before the picker showed (an address, a VM's team) that no page found holds. */
function useTeamName(id: number | null, known: Team | undefined) {
  const details = useQuery({
    ...teamQueries.detail(id ?? 0, { page: 1, rowsPerPage: 1, search: '' }),
    enabled: id !== null && !known,
  });
  if (known) return known;
  return id !== null && details.data ? { id, name: details.data.teamName } : null;
}

/** The chosen teams first (the page found may not hold them), then the ones found. */
const optionsOf = (chosen: Team[], found: Team[]) => [
  ...chosen.map((team) => ({ value: team.id, label: team.name })),
  ...found
    .filter((team) => !chosen.some((one) => one.id === team.id))
    .map((team) => ({ value: team.id, label: team.name })),
];

interface CommonProps {
  label?: string;
  'aria-label'?: string;
  description?: ReactNode;
  name?: string;
  placeholder?: string;
  disabled?: boolean;
  error?: ReactNode;
  onBlur?: () => void;
  inputWrapperOrder?: ('label' | 'input' | 'description' | 'error')[];
  w?: Parameters<typeof Select>[0]['w'];
  /** How many teams one search lists (the API's largest page unless a screen's spec says less). */
  rowsPerPage?: number;
}

interface TeamPickerProps extends CommonProps {
  value: number | null;
  onChange: (teamId: number | null) => void;
  /** A first option meaning no team ('All Teams', 'Select a team'); without it, clearable. */
  noneLabel?: string;
  /** The chosen team's name, when the screen knows it already (saves asking the server). */
  initialTeam?: Team | null;
}

/**
 * The one picker of a single team: searches the server as the user types. Memoised: its options
 * (up to a page of teams) are kept mounted, and a form's other fields redraw often.
 */
export const TeamPicker = memo(function TeamPicker({
  value,
  onChange,
  noneLabel,
  initialTeam = null,
  error,
  rowsPerPage = ALL_TEAMS.rowsPerPage,
  ...rest
}: TeamPickerProps) {
  const [chosen, setChosen] = useState<Team | null>(initialTeam);
  // null while not typing: the box then shows the chosen team's name, which is not a search.
  const [searchValue, setSearchValue] = useState<string | null>(null);
  const { found, error: loadError, loading } = useTeamSearch(searchValue ?? '', rowsPerPage);
  const known =
    value === null
      ? undefined
      : chosen?.id === value
        ? chosen
        : found.find((team) => team.id === value);
  const current = useTeamName(value, known);
  const data = [
    ...(noneLabel ? [{ value: 0, label: noneLabel }] : []),
    ...optionsOf(current ? [current] : [], found),
  ];
  const shown = current?.name ?? (noneLabel && value === null ? noneLabel : '');
  return (
    <Select<number>
      {...DROPDOWN_DEFAULTS}
      {...rest}
      data-field={rest.name}
      data={data}
      value={value ?? (noneLabel ? 0 : null)}
      onChange={(next, option) => {
        const teamId = next ? next : null;
        setChosen(teamId && option ? { id: teamId, name: option.label } : null);
        setSearchValue(null);
        onChange(teamId);
      }}
      searchable
      searchValue={searchValue ?? shown}
      onSearchChange={(next) => setSearchValue(next === shown ? null : next)}
      // The server has searched already; the list shows what it found.
      filter={({ options }) => options}
      allowDeselect={false}
      clearable={!noneLabel}
      rightSection={loading}
      error={error ?? loadError}
    />
  );
});

interface TeamsPickerProps extends CommonProps {
  value: number[];
  onChange: (teamIds: number[]) => void;
}

/** The one picker of several teams (a new user's, an API token's): searches the server. */
export function TeamsPicker({
  value,
  onChange,
  error,
  placeholder,
  rowsPerPage = ALL_TEAMS.rowsPerPage,
  ...rest
}: TeamsPickerProps) {
  const [known, setKnown] = useState<Team[]>([]);
  const [searchValue, setSearchValue] = useState('');
  const { found, error: loadError, loading } = useTeamSearch(searchValue, rowsPerPage);
  const chosen = value.map(
    (id) =>
      known.find((team) => team.id === id) ??
      found.find((team) => team.id === id) ?? { id, name: `Team ${id}` },
  );
  return (
    <MultiSelect<number>
      {...DROPDOWN_DEFAULTS}
      {...rest}
      data-field={rest.name}
      data={optionsOf(chosen, found)}
      value={value}
      onChange={(next) => {
        const names = [...known, ...found];
        setKnown(next.map((id) => names.find((team) => team.id === id) ?? { id, name: '' }));
        onChange(next);
      }}
      searchable
      searchValue={searchValue}
      onSearchChange={setSearchValue}
      filter={({ options }) => options}
      hidePickedOptions
      // The placeholder prompts for a first choice only.
      placeholder={value.length ? undefined : (placeholder ?? DROPDOWN_DEFAULTS.placeholder)}
      rightSection={loading}
      error={error ?? loadError}
    />
  );
}
