import { Radio, Select, Stack, TextInput } from '@mantine/core';
import { apiTokenAccess, type ApiTokenAccess } from '../../../../api/contract/api-tokens';
import { formatDateTime } from '../../../../components/date-format';
import { useBoundField } from '../../../../components/bound-field';
import { DROPDOWN_DEFAULTS } from '../../../../components/dropdown';
import { TeamsPicker } from '../../../../components/team-picker';
import { expiresAtOf, expiryChoices, expiryDayBounds, type ExpiryChoice } from './api-token-expiry';
import { accessDescriptions, accessLabels } from './api-token-labels';

/** The fields of the token form that need more than a plain text input. */

export function ExpiryField() {
  const { field, value, error } = useBoundField<ExpiryChoice>();
  const expiresAt = value === 'date' ? undefined : expiresAtOf(value, '', new Date());
  return (
    <Select<ExpiryChoice>
      {...DROPDOWN_DEFAULTS}
      label="Expires"
      description={expiresAt ? `On ${formatDateTime(expiresAt)}` : 'At the end of the chosen day'}
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      name={field.name}
      data-field={field.name}
      data={expiryChoices}
      value={value}
      onChange={(choice) => choice && field.handleChange(choice)}
      onBlur={field.handleBlur}
      allowDeselect={false}
      error={error}
    />
  );
}

export function ExpiryDayField() {
  const { field, value, error } = useBoundField<string>();
  const { min, max } = expiryDayBounds(new Date());
  return (
    <TextInput
      type="date"
      label="Expiry date"
      description="A year from today at most"
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      name={field.name}
      data-field={field.name}
      min={min}
      max={max}
      value={value}
      onChange={(event) => field.handleChange(event.currentTarget.value)}
      onBlur={field.handleBlur}
      error={error}
      required
      withAsterisk={false}
    />
  );
}

export function AccessField() {
  const { field, value, error } = useBoundField<ApiTokenAccess>();
  return (
    <Radio.Group
      label="Access"
      name={field.name}
      value={value}
      onChange={(next) => field.handleChange(next as ApiTokenAccess)}
      error={error}
    >
      <Stack gap="xs" mt="xs">
        {apiTokenAccess.map((access) => (
          <Radio
            key={access}
            value={access}
            label={accessLabels[access]}
            description={accessDescriptions[access]}
            data-field={access === value ? field.name : undefined}
          />
        ))}
      </Stack>
    </Radio.Group>
  );
}

/** The teams a token is narrowed to: those the user sees (a member's own, an Admin's all). */
export function TeamsField() {
  const { field, value, error } = useBoundField<number[]>();
  return (
    <TeamsPicker
      label="Teams"
      description="Leave empty to cover every team you may see"
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      name={field.name}
      value={value}
      onChange={field.handleChange}
      onBlur={field.handleBlur}
      placeholder="All teams"
      error={error}
    />
  );
}
