import { Group, MultiSelect, Text } from '@mantine/core';
import { DROPDOWN_DEFAULTS, useBoundField } from '../../../../components/dropdown';
import {
  eventTypeDescription,
  eventTypeOptions,
  filterEventTypes,
  nextEventTypes,
} from './webhook-event-types';

/** The event types a webhook subscribes to: searchable by name or meaning, or all of them. */
export function EventTypesField({ description }: { description: string }) {
  const { field, value, error } = useBoundField<string[]>();
  return (
    <MultiSelect
      {...DROPDOWN_DEFAULTS}
      label="Event types"
      description={description}
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      name={field.name}
      data-field={field.name}
      data={eventTypeOptions}
      value={value}
      onChange={(next) => field.handleChange(nextEventTypes(value, next))}
      onBlur={field.handleBlur}
      searchable
      filter={filterEventTypes}
      renderOption={({ option }) => (
        <Group gap="xs" wrap="nowrap" justify="space-between" w="100%">
          <Text size="sm">{option.label}</Text>
          <Text size="xs" c="dimmed" ta="right">
            {option.value === '*' ? '' : eventTypeDescription(option.value)}
          </Text>
        </Group>
      )}
      placeholder={value.length ? undefined : 'Search event types'}
      maxDropdownHeight={280}
      required
      withAsterisk={false}
      error={error}
    />
  );
}
