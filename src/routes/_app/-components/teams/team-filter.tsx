import { Select } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { DROPDOWN_DEFAULTS } from '../../../../components/dropdown';
import { managementErrorLeads, withLead } from '../../../../components/error-text';
import { ALL_TEAMS, teamQueries } from '../../../../queries/teams';

const ALL = 0;

/** Scopes a VM list to one team; 'All Teams' lifts the filter. */
export function TeamFilter({
  value,
  onChange,
}: {
  value: number | undefined;
  onChange: (teamId: number | undefined) => void;
}) {
  const teams = useQuery(teamQueries.list(ALL_TEAMS));
  const data = [
    { value: ALL, label: 'All Teams' },
    ...(teams.data?.data.map((team) => ({ value: team.id, label: team.name })) ?? []),
  ];
  return (
    <Select<number>
      {...DROPDOWN_DEFAULTS}
      aria-label="Team"
      data={data}
      value={value ?? ALL}
      onChange={(next) => onChange(next ? next : undefined)}
      allowDeselect={false}
      searchable
      w={{ base: '100%', sm: 200 }}
      error={teams.error ? withLead(managementErrorLeads.fetchTeams, teams.error) : undefined}
    />
  );
}
