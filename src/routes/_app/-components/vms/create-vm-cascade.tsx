import { Alert, Loader, Select, SimpleGrid, Stack, Switch } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import { memo, useCallback, useMemo } from 'react';
import { vmMessages } from '../../../../api/contract/vms';
import { DROPDOWN_DEFAULTS } from '../../../../components/dropdown';
import { TeamPicker } from '../../../../components/team-picker';
import { vmErrorLeads, withLead } from '../../../../components/error-text';
import type { CreateVmCatalog } from './create-vm-catalog';
import { instanceCounts, type CascadeField, type CreateVmValues } from './create-vm-form';
import { sizeLabel } from './size-label';

export const publicIpTexts = {
  on: 'Each virtual machine gets a unique public IPv4 address, translated to its private address.',
  off: 'Each virtual machine gets a private address only, with outbound internet access.',
} as const;

type Option = { value: number; label: string };
type Choose = (field: CascadeField, value: number | null) => void;

interface CascadeSelectProps {
  label: string;
  placeholder?: string;
  field: CascadeField;
  value: number | null;
  options: Option[];
  choose: Choose;
  disabled: boolean;
  /** The list it offers is being fetched. */
  loading?: boolean;
  /** Why the list it offers could not be had, under its lead. */
  error?: string;
  required?: boolean;
}

/**
 * Memoised, as its props are (the options by their list, `choose` by the form): a choice redraws
 * the dropdowns it changes, not the seven with their kept-mounted options.
 */
const CascadeSelect = memo(function CascadeSelect({
  label,
  placeholder = DROPDOWN_DEFAULTS.placeholder,
  field,
  value,
  options,
  choose,
  disabled,
  loading,
  error,
  required = true,
}: CascadeSelectProps) {
  return (
    <Select<number>
      {...DROPDOWN_DEFAULTS}
      label={label}
      placeholder={placeholder}
      required={required}
      withAsterisk={false}
      data={options}
      value={value}
      onChange={(next) => choose(field, next)}
      // Only an optional choice can be taken back.
      allowDeselect={!required}
      clearable={!required}
      searchable
      disabled={disabled}
      rightSection={
        !disabled && loading ? <Loader size="xs" aria-label={`Loading ${label}`} /> : undefined
      }
      error={disabled ? undefined : error}
    />
  );
});

/** A list's state as its dropdown shows it. */
const listState = (query: UseQueryResult<unknown>, lead: string) => ({
  loading: query.isFetching,
  error: query.error ? withLead(lead, query.error) : undefined,
});

const instanceOptions = instanceCounts.map((count) => ({ value: count, label: String(count) }));

const named = (items: { id: number; name: string }[] | undefined): Option[] =>
  items?.map((item) => ({ value: item.id, label: item.name })) ?? [];

interface CreateVmCascadeProps {
  values: CreateVmValues;
  catalog: CreateVmCatalog;
  /** Stable across renders (the dropdowns are memoised on it). */
  choose: Choose;
  onPublicIpChange: (on: boolean) => void;
}

/**
 * Country, region, image, size, provider (when there is a choice), number of instances and team,
 * each open once everything before it is chosen; then the public IP toggle.
 */
export function CreateVmCascade({
  values,
  catalog,
  choose,
  onPublicIpChange,
}: CreateVmCascadeProps) {
  const { countries, regions, images, sizes, providers, providerId } = catalog;
  const providerCount = providers.data?.length;
  const steps = {
    country: values.name.trim() !== '',
    region: false,
    image: false,
    size: false,
    count: false,
    team: false,
  };
  steps.region = steps.country && values.countryId !== null;
  steps.image = steps.region && values.regionId !== null;
  steps.size = steps.image && values.imageId !== null;
  steps.count = steps.size && values.configurationId !== null && providerId !== null;
  steps.team = steps.count && values.numberOfInstances !== null;

  const countryOptions = useMemo(() => named(countries.data), [countries.data]);
  const regionOptions = useMemo(() => named(regions.data), [regions.data]);
  const imageOptions = useMemo(() => named(images.data), [images.data]);
  const sizeOptions = useMemo(
    () => sizes.data?.map((size) => ({ value: size.id, label: sizeLabel(size) })) ?? [],
    [sizes.data],
  );
  const providerOptions = useMemo(() => named(providers.data), [providers.data]);
  const chooseTeam = useCallback((teamId: number | null) => choose('teamId', teamId), [choose]);

  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <CascadeSelect
          label="Country"
          placeholder="Please select a country"
          field="countryId"
          value={values.countryId}
          options={countryOptions}
          choose={choose}
          disabled={!steps.country}
          {...listState(countries, 'Error fetching countries')}
        />
        <CascadeSelect
          label="Region"
          placeholder="Please select a region"
          field="regionId"
          value={values.regionId}
          options={regionOptions}
          choose={choose}
          disabled={!steps.region}
          {...listState(regions, 'Error fetching regions')}
        />
        <CascadeSelect
          label="Image"
          placeholder="Please select an Image"
          field="imageId"
          value={values.imageId}
          options={imageOptions}
          choose={choose}
          disabled={!steps.image}
          {...listState(images, vmErrorLeads.fetchImages)}
        />
        <CascadeSelect
          label="Size"
          placeholder="Please select a machine configuration"
          field="configurationId"
          value={values.configurationId}
          options={sizeOptions}
          choose={choose}
          disabled={!steps.size}
          {...listState(sizes, vmErrorLeads.fetchConfigurations)}
        />
        {steps.size &&
          values.configurationId !== null &&
          providerCount !== undefined &&
          providerCount > 1 && (
            <CascadeSelect
              label="Provider"
              field="providerId"
              value={values.providerId}
              options={providerOptions}
              choose={choose}
              disabled={false}
              {...listState(providers, 'Error fetching providers')}
            />
          )}
        <CascadeSelect
          label="Number of Instances"
          field="numberOfInstances"
          value={values.numberOfInstances}
          options={instanceOptions}
          choose={choose}
          disabled={!steps.count}
        />
        <TeamPicker
          label="Team (optional)"
          value={values.teamId}
          onChange={chooseTeam}
          disabled={!steps.team}
        />
      </SimpleGrid>
      {steps.size && values.configurationId !== null && providerCount === 0 && (
        <Alert color="yellow" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
          {vmMessages.noProvider}
        </Alert>
      )}
      {steps.size && values.configurationId !== null && providers.error && (
        <Alert color="red" variant="light" role="alert">
          {withLead('Error fetching providers', providers.error)}
        </Alert>
      )}
      <Switch
        label="Allocate a public IP address"
        description={values.allocatePublicIp ? publicIpTexts.on : publicIpTexts.off}
        checked={values.allocatePublicIp}
        onChange={(event) => onPublicIpChange(event.currentTarget.checked)}
      />
    </Stack>
  );
}
