import { describe, expect, it } from 'vitest';
import {
  after,
  createVmDefaults,
  instanceCounts,
  toCreateBody,
  type CreateVmValues,
} from '../../src/routes/_app/-components/vms/create-vm-form';

const complete: CreateVmValues = {
  ...createVmDefaults,
  name: ' web ',
  countryId: 1,
  regionId: 4,
  imageId: 10,
  configurationId: 3,
  numberOfInstances: 2,
};

describe('Create VM form rules', () => {
  it('builds the contract’s body with the provider in effect and the name trimmed', () => {
    expect(toCreateBody(complete, 1)).toEqual({
      problem: null,
      body: {
        name: 'web',
        regionId: 4,
        imageId: 10,
        configurationId: 3,
        providerId: 1,
        numberOfInstances: 2,
        allocatePublicIp: true,
      },
    });
    expect(toCreateBody({ ...complete, teamId: 5 }, 1).body).toMatchObject({ teamId: 5 });
  });

  it.each([
    ['name', { name: '   ' }, 1],
    ['region', { regionId: null }, 1],
    ['image', { imageId: null }, 1],
    ['size', { configurationId: null }, 1],
    ['instance count', { numberOfInstances: null }, 1],
    ['provider', {}, null],
  ] as const)('asks to fill in empty fields when the %s is missing', (_what, patch, provider) => {
    expect(toCreateBody({ ...complete, ...patch }, provider)).toEqual({
      body: null,
      problem: 'Please fill in empty fields',
    });
  });

  it.each([0, 11, 2.5])('refuses %s instances', (count) => {
    expect(toCreateBody({ ...complete, numberOfInstances: count }, 1).problem).toBe(
      'Number of copies must be between 1 to 10',
    );
  });

  it('offers 1 to 10 instances', () => {
    expect(instanceCounts).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('clears every later choice of the cascade', () => {
    expect(after('countryId')).toEqual([
      'regionId',
      'imageId',
      'configurationId',
      'providerId',
      'numberOfInstances',
      'teamId',
    ]);
    expect(after('regionId')[0]).toBe('imageId');
    expect(after('imageId')[0]).toBe('configurationId');
    expect(after('configurationId')).toEqual(['providerId', 'numberOfInstances', 'teamId']);
    expect(after('numberOfInstances')).toEqual(['teamId']);
    expect(after('teamId')).toEqual([]);
  });
});
