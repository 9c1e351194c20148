import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVmWorld, type VmWorld } from './support/vm-world';

let w: VmWorld;
beforeAll(async () => {
  w = await startVmWorld();
});
afterAll(() => w.close());

const get = (url: string) => w.call('viewer', 'GET', `/virtualMachines/${url}`);
const data = async (url: string) => {
  const res = await get(url);
  expect(res.status).toBe(200);
  return (res.body as { data: unknown }).data as never;
};
const names = (items: { name: string }[]) => items.map((i) => i.name);

describe('the create cascade, step by step', () => {
  it('lists the countries that have regions on offer', async () => {
    expect(names(await data('listCountries'))).toEqual([
      'Germany',
      'Netherlands',
      'Singapore',
      'United States',
    ]);
  });

  it("lists a country's regions and cities", async () => {
    const countries: { id: number; name: string }[] = await data('listCountries');
    const us = countries.find((c) => c.name === 'United States')!;
    expect(names(await data(`listRegions/${us.id}`))).toEqual([
      'Los Angeles (US West)',
      'New York (US East)',
    ]);
    expect(names(await data(`listCities/${us.id}`))).toEqual(['Los Angeles', 'New York']);
  });

  it('lists every region as one label, and one region in full', async () => {
    const combined: { id: number; countryRegion: string }[] = await data('listCombinedRegions');
    expect(combined.map((r) => r.countryRegion)).toContain('United States - Los Angeles');
    const { regionId } = await w.catalog();
    expect(await data(`getRegion/${regionId}`)).toMatchObject({
      id: regionId,
      name: 'US West',
      city: 'Los Angeles',
      country: 'United States',
      countryRegion: 'United States - Los Angeles',
    });
  });

  it("lists a region's images; Windows only where a provider has it", async () => {
    const la = await w.catalog('us-lax-1');
    const sin = await w.catalog('sg-sin-1');
    expect(names(await data(`listImages/${la.regionId}`))).toEqual([
      'Debian 12',
      'Rocky Linux 9',
      'Ubuntu 22.04 LTS',
      'Ubuntu 24.04 LTS',
      'Windows Server 2022',
    ]);
    expect(names(await data(`listImages/${sin.regionId}`))).not.toContain('Windows Server 2022');
  });

  it('lists the fixed size catalogue of the spec, smallest first', async () => {
    expect(await data('listConfigurations')).toEqual([
      { id: 1, key: 'micro', name: 'Micro', cpu: 2, ram: 4, disk: 80 },
      { id: 2, key: 'extraSmall', name: 'Extra Small', cpu: 4, ram: 8, disk: 120 },
      { id: 3, key: 'small', name: 'Small', cpu: 6, ram: 10, disk: 180 },
      { id: 4, key: 'medium', name: 'Medium', cpu: 8, ram: 12, disk: 240 },
      { id: 5, key: 'large', name: 'Large', cpu: 12, ram: 48, disk: 300 },
      { id: 6, key: 'extraLarge', name: 'Extra Large', cpu: 16, ram: 64, disk: 400 },
    ]);
  });

  it('lists the sizes offered in a region', async () => {
    const la = await w.catalog('us-lax-1');
    const sin = await w.catalog('sg-sin-1');
    const sizes = (url: string) =>
      data(url).then((list: { key: string }[]) => list.map((c) => c.key));
    expect(
      await sizes(`fetchVirtualMachineConfigurations/${la.regionId}?imageId=${la.imageId}`),
    ).toEqual(['micro', 'extraSmall', 'small', 'medium', 'large', 'extraLarge']);
    expect(
      await sizes(`fetchVirtualMachineConfigurations/${sin.regionId}?imageId=${sin.imageId}`),
    ).toEqual(['micro', 'extraSmall', 'small', 'medium']);
  });

  it('answers two providers, one, or none for a region, image and size', async () => {
    const la = await w.catalog('us-lax-1');
    const windows = await w.catalog('us-lax-1', 'windows-2022');
    const providers = (regionId: number, imageId: number, configurationId: number) =>
      data(`listProviders/${regionId}?imageId=${imageId}&configurationId=${configurationId}`).then(
        names,
      );
    expect(await providers(la.regionId, la.imageId, 3)).toEqual(['Northwind Cloud', 'Sharktech']);
    expect(await providers(la.regionId, la.imageId, 6)).toEqual(['Sharktech']);
    expect(await providers(la.regionId, la.imageId, 1)).toEqual(['Northwind Cloud']);
    // Windows is Sharktech's alone there, and Sharktech has no Micro in Los Angeles.
    expect(await providers(la.regionId, windows.imageId, 1)).toEqual([]);
    expect(await providers(la.regionId, windows.imageId, 2)).toEqual(['Sharktech']);
  });

  it('offers an existing VM the sizes of its provider in its region', async () => {
    const id = await w.runningVm('sized', {
      providerId: await w.providerId('sim-northwind'),
    });
    const { regionId } = await w.catalog();
    const sizes: { key: string }[] = await data(
      `fetchVirtualMachineConfigurations/${regionId}?vmId=${id}`,
    );
    // Northwind has no Extra Large in Los Angeles.
    expect(sizes.map((s) => s.key)).toEqual(['micro', 'extraSmall', 'small', 'medium', 'large']);
  });
});

describe('bad lookups', () => {
  it('answers 404 for ids that name nothing', async () => {
    const la = await w.catalog();
    const sin = await w.catalog('sg-sin-1');
    for (const url of [
      'listRegions/9999',
      'listCities/9999',
      'getRegion/9999',
      'listImages/9999',
      `listProviders/9999?imageId=${la.imageId}&configurationId=1`,
      // An image of another region.
      `listProviders/${la.regionId}?imageId=${sin.imageId}&configurationId=1`,
      `fetchVirtualMachineConfigurations/${la.regionId}?imageId=${sin.imageId}`,
      `fetchVirtualMachineConfigurations/${la.regionId}?vmId=9999`,
    ]) {
      expect((await get(url)).status, url).toBe(404);
    }
  });

  it('answers 400 naming the field for malformed ids and missing parameters', async () => {
    const la = await w.catalog();
    expect(await get('listImages/abc')).toMatchObject({
      status: 400,
      body: { errors: [{ field: 'id' }] },
    });
    expect(await get(`listProviders/${la.regionId}?imageId=${la.imageId}`)).toMatchObject({
      status: 400,
      body: { errors: [{ field: 'configurationId' }] },
    });
    expect(await get(`fetchVirtualMachineConfigurations/${la.regionId}`)).toMatchObject({
      status: 400,
      body: { errors: [{ field: 'imageId' }] },
    });
  });

  it('needs a verified session', async () => {
    const res = await w.server.app.inject({
      method: 'GET',
      url: '/api/v1/virtualMachines/listCountries',
    });
    expect(res.statusCode).toBe(401);
  });
});
