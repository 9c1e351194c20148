import { useBoundField } from '../../../../components/bound-field';
import { TeamPicker } from '../../../../components/team-picker';

/** The first option: no team. */
export const NO_TEAM_LABEL = 'Select a team';
/** Spec section 9: the dropdown loads page 1 with 10 teams, searched on the server. */
export const TEAM_PICKER_ROWS = 10;

/** Team Assignment: any of the caller's teams, found by name on the server; or none. */
export function TeamSelectField({
  initialTeam,
}: {
  initialTeam: { id: number; name: string } | null;
}) {
  const { field, value, error } = useBoundField<number | null>();
  return (
    <TeamPicker
      label="Team Assignment"
      name={field.name}
      value={value}
      onChange={field.handleChange}
      onBlur={field.handleBlur}
      noneLabel={NO_TEAM_LABEL}
      initialTeam={initialTeam}
      rowsPerPage={TEAM_PICKER_ROWS}
      error={error}
    />
  );
}
