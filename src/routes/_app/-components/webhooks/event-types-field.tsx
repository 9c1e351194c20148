import { Group, MultiSelect, Text } from '@mantine/core';
import { useState } from 'react';
import { ALL_EVENTS } from '../../../../api/contract/webhooks';
import { useBoundField } from '../../../../components/bound-field';
import { DROPDOWN_DEFAULTS } from '../../../../components/dropdown';
import {
  eventTypeDescription,
  eventTypeOptions,
  filterEventTypes,
  nextEventTypes,
} from './webhook-event-types';

/** The event types a webhook subscribes to: searchable by name or meaning, or all of them. */
export function EventTypesField({ description }: { description: string }) {
  const { field, value, error } = useBoundField<string[]>();
  const [opened, setOpened] = useState(false);
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
      onChange={(next) => {
        const chosen = nextEventTypes(value, next);
        field.handleChange(chosen);
        // Nothing is left to choose beside every event: out of the way of the form's buttons.
        if (chosen.includes(ALL_EVENTS)) setOpened(false);
      }}
      dropdownOpened={opened}
      onDropdownOpen={() => setOpened(true)}
      onDropdownClose={() => setOpened(false)}
      onBlur={field.handleBlur}
      searchable
      filter={filterEventTypes}
      renderOption={({ option }) => (
        <Group gap="xs" wrap="nowrap" justify="space-between" w="100%">
          <Text size="sm">{option.label}</Text>
          <Text size="xs" c="dimmed" ta="right">
            {option.value === ALL_EVENTS ? '' : eventTypeDescription(option.value)}
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
