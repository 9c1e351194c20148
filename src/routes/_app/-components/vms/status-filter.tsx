import { Select } from '@mantine/core';
import type { VmStatusFilter as StatusFilter } from '../../../../api/contract/search-values';
import { DROPDOWN_DEFAULTS } from '../../../../components/dropdown';

const ALL = 'all';

const options: { value: StatusFilter | typeof ALL; label: string }[] = [
  { value: ALL, label: 'All statuses' },
  { value: 'running', label: 'Running' },
  { value: 'stopped', label: 'Stopped' },
  { value: 'error', label: 'Error' },
  { value: 'inProgress', label: 'In progress' },
];

/**
 * Narrows a VM list to the statuses a customer tells apart (stopped is Stopped or Shutoff, as the
 * Dashboard counts them); 'All statuses' lifts the filter.
 */
export function VmStatusFilter({
  value,
  onChange,
}: {
  value: StatusFilter | undefined;
  onChange: (status: StatusFilter | undefined) => void;
}) {
  return (
    <Select
      {...DROPDOWN_DEFAULTS}
      aria-label="Status"
      data={options}
      value={value ?? ALL}
      onChange={(next) => onChange(next && next !== ALL ? (next as StatusFilter) : undefined)}
      allowDeselect={false}
      w={{ base: '100%', sm: 160 }}
    />
  );
}
