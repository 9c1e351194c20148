import { Alert, Loader, Select, SimpleGrid, Stack, Switch } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
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

interface CascadeSelectProps {
  label: string;
  placeholder?: string;
  value: number | null;
  options: Option[];
  onChange: (value: number | null) => void;
  disabled: boolean;
  /** The list it offers (for its loading state and error). */
  query?: UseQueryResult<unknown>;
  errorLead?: string;
  required?: boolean;
}

function CascadeSelect({
  label,
  placeholder = DROPDOWN_DEFAULTS.placeholder,
  value,
  options,
  onChange,
  disabled,
  query,
  errorLead,
  required = true,
}: CascadeSelectProps) {
  const loading = !disabled && query?.isFetching;
  return (
    <Select<number>
      {...DROPDOWN_DEFAULTS}
      label={label}
      placeholder={placeholder}
      required={required}
      withAsterisk={false}
      data={options}
      value={value}
      onChange={onChange}
      // Only an optional choice can be taken back.
      allowDeselect={!required}
      clearable={!required}
      searchable
      disabled={disabled}
      rightSection={loading ? <Loader size="xs" aria-label={`Loading ${label}`} /> : undefined}
      error={!disabled && query?.error && errorLead ? withLead(errorLead, query.error) : undefined}
    />
  );
}

const named = (items: { id: number; name: string }[] | undefined): Option[] =>
  items?.map((item) => ({ value: item.id, label: item.name })) ?? [];

interface CreateVmCascadeProps {
  values: CreateVmValues;
  catalog: CreateVmCatalog;
  choose: (field: CascadeField, value: number | null) => void;
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

  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <CascadeSelect
          label="Country"
          placeholder="Please select a country"
          value={values.countryId}
          options={named(countries.data)}
          onChange={(value) => choose('countryId', value)}
          disabled={!steps.country}
          query={countries}
          errorLead="Error fetching countries"
        />
        <CascadeSelect
          label="Region"
          placeholder="Please select a region"
          value={values.regionId}
          options={named(regions.data)}
          onChange={(value) => choose('regionId', value)}
          disabled={!steps.region}
          query={regions}
          errorLead="Error fetching regions"
        />
        <CascadeSelect
          label="Image"
          placeholder="Please select an Image"
          value={values.imageId}
          options={named(images.data)}
          onChange={(value) => choose('imageId', value)}
          disabled={!steps.image}
          query={images}
          errorLead={vmErrorLeads.fetchImages}
        />
        <CascadeSelect
          label="Size"
          placeholder="Please select a machine configuration"
          value={values.configurationId}
          options={sizes.data?.map((size) => ({ value: size.id, label: sizeLabel(size) })) ?? []}
          onChange={(value) => choose('configurationId', value)}
          disabled={!steps.size}
          query={sizes}
          errorLead={vmErrorLeads.fetchConfigurations}
        />
        {steps.size &&
          values.configurationId !== null &&
          providerCount !== undefined &&
          providerCount > 1 && (
            <CascadeSelect
              label="Provider"
              value={values.providerId}
              options={named(providers.data)}
              onChange={(value) => choose('providerId', value)}
              disabled={false}
              query={providers}
              errorLead="Error fetching providers"
            />
          )}
        <CascadeSelect
          label="Number of Instances"
          value={values.numberOfInstances}
          options={instanceCounts.map((count) => ({ value: count, label: String(count) }))}
          onChange={(value) => choose('numberOfInstances', value)}
          disabled={!steps.count}
        />
        <TeamPicker
          label="Team (optional)"
          value={values.teamId}
          onChange={(value) => choose('teamId', value)}
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
