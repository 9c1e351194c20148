import { screen } from '@testing-library/react';
import type { CompanyLimits } from '../../../src/api/contract/limits';
import type { CreateVmBody, LookupItem } from '../../../src/api/contract/vms';
import { api, http, ok, server } from './msw';
import { aTeam, gate, serveTeams, signIn } from './teams-fixtures';
import { sizes } from './vms-fixtures';

export const countries: LookupItem[] = [
  { id: 1, name: 'Germany' },
  { id: 2, name: 'United States' },
];
export const regions: Record<number, LookupItem[]> = {
  1: [
    { id: 4, name: 'Frankfurt' },
    { id: 5, name: 'Berlin' },
  ],
  2: [{ id: 7, name: 'Virginia' }],
};
export const images: Record<number, LookupItem[]> = {
  4: [
    { id: 10, name: 'Ubuntu 24.04' },
    { id: 11, name: 'Debian 12' },
  ],
  5: [{ id: 12, name: 'Rocky Linux 9' }],
  7: [{ id: 13, name: 'Alpine 3.20' }],
};
/** Small (3) has one provider, Medium (4) two, Large (5) none. */
export const providers: Record<number, LookupItem[]> = {
  1: [{ id: 1, name: 'sim' }],
  2: [{ id: 1, name: 'sim' }],
  3: [{ id: 1, name: 'sim' }],
  4: [
    { id: 1, name: 'sim' },
    { id: 2, name: 'metal' },
  ],
  5: [],
};

/** One entry of `GET /limits`: `left` is max - used unless told. */
export const aLimit = (
  entry: Pick<CompanyLimits['limits'][number], 'resource' | 'regionId' | 'max' | 'used'> &
    Partial<CompanyLimits['limits'][number]>,
): CompanyLimits['limits'][number] => ({
  left: entry.max - entry.used,
  source: 'company',
  ...entry,
});

/**
 * Serves the create cascade's lookups, the teams, `create`, the company's `limits` (none unless
 * given) and the user's `sshKeys` (none unless given), and records what was asked. `holdImages(regionId)` holds that region's images until
 * released.
 */
export function serveCreateVm({
  limits = [],
  sshKeys = [],
}: { limits?: CompanyLimits['limits']; sshKeys?: object[] } = {}) {
  signIn();
  const teams = serveTeams({
    teams: [aTeam(5, { name: 'Platform' }), aTeam(6, { name: 'Data' })],
  });
  const asked: string[] = [];
  const limitRequests: string[] = [];
  const created: CreateVmBody[] = [];
  const imageGates: Record<number, ReturnType<typeof gate>> = {};
  server.use(
    http.get(api('virtualMachines/listCountries'), () => {
      asked.push('countries');
      return ok(countries);
    }),
    http.get(api('virtualMachines/listRegions/:id'), ({ params }) => {
      asked.push(`regions ${String(params.id)}`);
      return ok(regions[Number(params.id)] ?? []);
    }),
    http.get(api('virtualMachines/listImages/:id'), async ({ params }) => {
      const regionId = Number(params.id);
      asked.push(`images ${regionId}`);
      await imageGates[regionId]?.wait();
      return ok(images[regionId] ?? []);
    }),
    http.get(
      api('virtualMachines/fetchVirtualMachineConfigurations/:regionId'),
      ({ params, request }) => {
        const query = new URL(request.url).searchParams;
        asked.push(`sizes ${String(params.regionId)} ${query.toString()}`);
        return ok(sizes);
      },
    ),
    http.get(api('virtualMachines/listProviders/:regionId'), ({ params, request }) => {
      const query = new URL(request.url).searchParams;
      asked.push(`providers ${String(params.regionId)} ${query.toString()}`);
      return ok(providers[Number(query.get('configurationId'))] ?? []);
    }),
    // Apart from `asked`, which lists the cascade's own lookups.
    http.get(api('limits'), () => {
      limitRequests.push('limits');
      return ok({ limits });
    }),
    // The user's account keys, which the SSH keys picker offers.
    http.get(api('sshKeys/list'), () => ok(sshKeys)),
    http.post(api('virtualMachines/create'), async ({ request }) => {
      created.push((await request.json()) as CreateVmBody);
      return ok({ ids: [90] }, 'Virtual machine creation started');
    }),
  );
  return {
    teams,
    asked,
    limitRequests,
    created,
    holdImages(regionId: number) {
      imageGates[regionId] = gate();
      return imageGates[regionId].hold();
    },
  };
}

export const field = (label: string) => screen.getByRole('combobox', { name: label });
export const nameInput = () => screen.getByRole('textbox', { name: 'Name' });
export const submit = () => screen.getByRole('button', { name: 'Create Virtual Machine' });
