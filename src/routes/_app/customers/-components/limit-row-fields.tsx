import { Loader, NumberInput, Select, Text } from '@mantine/core';
import { useStore } from '@tanstack/react-form';
import { LIMIT_MAX, limitResources, type LimitResource } from '../../../../api/contract/limits';
import { fieldErrorText, useBoundField } from '../../../../components/bound-field';
import { DROPDOWN_DEFAULTS } from '../../../../components/dropdown';
import { useFieldContext } from '../../../../components/form';
import { resourceLabels } from './limit-form-values';

/** The fields of one row of the limits form, each inside its `form.AppField`. */

const resourceOptions = limitResources.map((resource) => ({
  value: resource,
  label: resourceLabels[resource],
}));

export function ResourceField() {
  const { field, value, error } = useBoundField<LimitResource | null>();
  return (
    <Select<LimitResource>
      {...DROPDOWN_DEFAULTS}
      label="Resource"
      required
      withAsterisk={false}
      name={field.name}
      data-field={field.name}
      data={resourceOptions}
      value={value}
      onChange={field.handleChange}
      onBlur={field.handleBlur}
      allowDeselect={false}
      error={error}
    />
  );
}

export function RegionField({
  options,
  loading,
}: {
  options: { value: string; label: string }[];
  loading: boolean;
}) {
  const { field, value, error } = useBoundField<string>();
  return (
    <Select
      {...DROPDOWN_DEFAULTS}
      label="Region"
      required
      withAsterisk={false}
      name={field.name}
      data-field={field.name}
      data={options}
      value={value}
      onChange={(next) => next !== null && field.handleChange(next)}
      onBlur={field.handleBlur}
      searchable
      allowDeselect={false}
      rightSection={loading ? <Loader size="xs" aria-label="Loading regions" /> : undefined}
      error={error}
    />
  );
}

export function MaxField() {
  const { field, value, error } = useBoundField<number | string>();
  return (
    <NumberInput
      label="Max"
      required
      withAsterisk={false}
      name={field.name}
      data-field={field.name}
      value={value}
      onChange={field.handleChange}
      onBlur={field.handleBlur}
      min={0}
      max={LIMIT_MAX}
      // Not clamped: a number out of range says so instead of changing under the user's eyes.
      clampBehavior="none"
      allowDecimal={false}
      allowNegative={false}
      hideControls
      inputMode="numeric"
      error={error}
    />
  );
}

/** A problem with the row as a whole (the same resource twice in one region). */
export function RowError() {
  const field = useFieldContext<unknown>();
  const error = useStore(field.store, (state) => fieldErrorText(state.meta.errors));
  if (!error) return null;
  return (
    <Text size="sm" c="red" mt="xs" role="alert">
      {error}
    </Text>
  );
}
