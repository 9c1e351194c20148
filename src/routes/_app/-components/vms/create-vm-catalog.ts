import { useQuery } from '@tanstack/react-query';
import { catalogQueries } from '../../../../queries/vms';
import type { CreateVmValues } from './create-vm-form';

/**
 * The lists of the create cascade, each asked for once the choices it depends on are made. Every
 * list is keyed by those choices, so an answer for a region chosen before (a slow, stale one)
 * lands under its own key and never shows for the region chosen now.
 */
export function useCreateVmCatalog(values: CreateVmValues) {
  const { countryId, regionId, imageId, configurationId } = values;
  const countries = useQuery(catalogQueries.countries());
  const regions = useQuery({
    ...catalogQueries.regions(countryId ?? 0),
    enabled: countryId !== null,
  });
  const images = useQuery({
    ...catalogQueries.images(regionId ?? 0),
    enabled: regionId !== null,
  });
  const sizes = useQuery({
    ...catalogQueries.vmConfigurations(regionId ?? 0, { imageId: imageId ?? 0 }),
    enabled: regionId !== null && imageId !== null,
  });
  const providers = useQuery({
    ...catalogQueries.providers(regionId ?? 0, {
      imageId: imageId ?? 0,
      configurationId: configurationId ?? 0,
    }),
    enabled: regionId !== null && imageId !== null && configurationId !== null,
  });

  // Spec section 4: a single provider is chosen for the user (and its dropdown not shown).
  const onlyProvider = providers.data?.length === 1 ? providers.data[0]!.id : null;
  const providerId = configurationId === null ? null : (values.providerId ?? onlyProvider);

  return { countries, regions, images, sizes, providers, providerId };
}

export type CreateVmCatalog = ReturnType<typeof useCreateVmCatalog>;
