import { sizeKeys } from '../../../src/api/contract/vms';
import type { Catalog, CatalogImage } from '../driver';

/**
 * The sim engine's world: regions in several countries, images per region, and two provider
 * accounts. Los Angeles has both (so the console offers a choice of provider), every other region
 * one (so it is chosen for the user); a Windows Micro in Los Angeles has none at all. Public
 * addresses come from 198.18.0.0/15, the block set aside for benchmarks, so none is routable.
 */

const regions: Catalog['regions'] = [
  {
    key: 'us-lax-1',
    countryCode: 'US',
    countryName: 'United States',
    name: 'US West',
    city: 'Los Angeles',
    publicIpPool: '198.18.1.0/24',
  },
  {
    key: 'us-nyc-1',
    countryCode: 'US',
    countryName: 'United States',
    name: 'US East',
    city: 'New York',
    publicIpPool: '198.18.2.0/24',
  },
  {
    key: 'nl-ams-1',
    countryCode: 'NL',
    countryName: 'Netherlands',
    name: 'EU West',
    city: 'Amsterdam',
    publicIpPool: '198.18.3.0/24',
  },
  {
    key: 'de-fra-1',
    countryCode: 'DE',
    countryName: 'Germany',
    name: 'EU Central',
    city: 'Frankfurt',
    publicIpPool: '198.18.4.0/24',
  },
  {
    key: 'sg-sin-1',
    countryCode: 'SG',
    countryName: 'Singapore',
    name: 'Asia Pacific',
    city: 'Singapore',
    publicIpPool: '198.18.5.0/24',
  },
];

const linuxImages = [
  { key: 'ubuntu-24.04', name: 'Ubuntu 24.04 LTS', username: 'ubuntu' },
  { key: 'ubuntu-22.04', name: 'Ubuntu 22.04 LTS', username: 'ubuntu' },
  { key: 'debian-12', name: 'Debian 12', username: 'debian' },
  { key: 'rocky-9', name: 'Rocky Linux 9', username: 'rocky' },
];
const windows = { key: 'windows-2022', name: 'Windows Server 2022', username: 'Administrator' };
const withWindows = new Set(['us-lax-1', 'de-fra-1']);

const images: CatalogImage[] = regions.flatMap((region) =>
  [...linuxImages, ...(withWindows.has(region.key) ? [windows] : [])].map((image) => ({
    ...image,
    regionKey: region.key,
  })),
);

const imageKeysOf = (regionKey: string) =>
  images.filter((i) => i.regionKey === regionKey).map((i) => i.key);
const linuxKeys = linuxImages.map((i) => i.key);
const allSizes = [...sizeKeys];

export const simCatalog: Catalog = {
  regions,
  images,
  providers: [
    {
      key: 'sim-sharktech',
      name: 'Sharktech',
      offers: [
        // Windows needs more than a Micro: in Los Angeles, where Sharktech alone has Windows, a
        // Windows Micro has no provider at all.
        { regionKey: 'us-lax-1', imageKeys: imageKeysOf('us-lax-1'), sizeKeys: allSizes.slice(1) },
        { regionKey: 'us-nyc-1', imageKeys: imageKeysOf('us-nyc-1'), sizeKeys: allSizes },
        { regionKey: 'nl-ams-1', imageKeys: imageKeysOf('nl-ams-1'), sizeKeys: allSizes },
      ],
    },
    {
      key: 'sim-northwind',
      name: 'Northwind Cloud',
      offers: [
        { regionKey: 'us-lax-1', imageKeys: linuxKeys, sizeKeys: allSizes.slice(0, 5) },
        { regionKey: 'de-fra-1', imageKeys: imageKeysOf('de-fra-1'), sizeKeys: allSizes },
        { regionKey: 'sg-sin-1', imageKeys: linuxKeys, sizeKeys: allSizes.slice(0, 4) },
      ],
    },
  ],
};
