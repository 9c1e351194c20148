import { TeamPicker } from '../../../../components/team-picker';

/** Scopes a VM list to one team; 'All Teams' lifts the filter. Any team can be found by name. */
export function TeamFilter({
  value,
  onChange,
}: {
  value: number | undefined;
  onChange: (teamId: number | undefined) => void;
}) {
  return (
    <TeamPicker
      aria-label="Team"
      noneLabel="All Teams"
      value={value ?? null}
      onChange={(teamId) => onChange(teamId ?? undefined)}
      w={{ base: '100%', sm: 200 }}
    />
  );
}
