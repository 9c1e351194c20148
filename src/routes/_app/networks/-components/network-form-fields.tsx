import { Loader, Select, Textarea, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { clampCidrInput } from '../../../../api/contract/ip';
import {
  FORM_PREFIX_MAX,
  FORM_PREFIX_MIN,
  NETWORK_DESCRIPTION_MAX,
} from '../../../../api/contract/networks';
import { useBoundField } from '../../../../components/bound-field';
import { DROPDOWN_DEFAULTS } from '../../../../components/dropdown';
import { catalogQueries } from '../../../../queries/vms';

/** The fields of the network form that need more than a plain text input. */

/** A region of the catalogue, chosen once: on edit it shows as fixed text. */
export function RegionField({ lockedRegion }: { lockedRegion?: string }) {
  const { field, value, error } = useBoundField<number | null>();
  const regions = useQuery({ ...catalogQueries.combinedRegions(), enabled: !lockedRegion });
  if (lockedRegion) {
    return (
      <TextInput
        label="Region"
        value={lockedRegion}
        disabled
        description="The region cannot be changed after creation"
        data-field={field.name}
      />
    );
  }
  return (
    <Select<number>
      {...DROPDOWN_DEFAULTS}
      label="Region"
      required
      withAsterisk={false}
      name={field.name}
      data-field={field.name}
      data={
        regions.data?.map((region) => ({ value: region.id, label: region.countryRegion })) ?? []
      }
      value={value}
      onChange={field.handleChange}
      onBlur={field.handleBlur}
      searchable
      allowDeselect={false}
      disabled={regions.isPending}
      rightSection={
        regions.isPending ? <Loader size="xs" aria-label="Loading regions" /> : undefined
      }
      error={
        error ?? (regions.error ? `Error fetching regions: ${regions.error.message}` : undefined)
      }
    />
  );
}

/** Up to 500 characters, with what is left shown under the field. */
export function DescriptionField() {
  const { field, value, error } = useBoundField<string>();
  const remaining = NETWORK_DESCRIPTION_MAX - value.length;
  return (
    <Textarea
      label="Description"
      name={field.name}
      data-field={field.name}
      value={value}
      onChange={(event) => field.handleChange(event.currentTarget.value)}
      onBlur={field.handleBlur}
      rows={3}
      resize="vertical"
      description={
        remaining >= 0
          ? `${remaining} characters remaining`
          : `${-remaining} characters over the limit`
      }
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      error={error}
    />
  );
}

/**
 * Keeps only digits, dots, a slash and spaces, and brings an octet above 255 down to 255 as it is
 * typed (spec section 5).
 */
export function CidrField() {
  const { field, value, error } = useBoundField<string>();
  return (
    <TextInput
      label="CIDR Block"
      required
      withAsterisk={false}
      name={field.name}
      data-field={field.name}
      value={value}
      placeholder="e.g. 10.0.0.0/24"
      description={`A private IPv4 block with a prefix from /${FORM_PREFIX_MIN} to /${FORM_PREFIX_MAX}`}
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      autoComplete="off"
      spellCheck={false}
      onChange={(event) => field.handleChange(clampCidrInput(event.currentTarget.value))}
      onBlur={field.handleBlur}
      error={error}
    />
  );
}
