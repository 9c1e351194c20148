import { Select } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { DROPDOWN_DEFAULTS } from '../../../../components/dropdown';
import { catalogQueries } from '../../../../queries/vms';

const ALL = 0;

/** Scopes the networks list to one region; 'All Regions' lifts the filter. */
export function RegionFilter({
  value,
  onChange,
}: {
  value: number | undefined;
  onChange: (regionId: number | undefined) => void;
}) {
  const regions = useQuery(catalogQueries.combinedRegions());
  const data = [
    { value: ALL, label: 'All Regions' },
    ...(regions.data?.map((region) => ({ value: region.id, label: region.countryRegion })) ?? []),
  ];
  return (
    <Select<number>
      {...DROPDOWN_DEFAULTS}
      aria-label="Region"
      data={data}
      value={value ?? ALL}
      onChange={(next) => onChange(next ? next : undefined)}
      allowDeselect={false}
      searchable
      w={{ base: '100%', sm: 220 }}
      error={regions.error ? `Error fetching regions: ${regions.error.message}` : undefined}
    />
  );
}
