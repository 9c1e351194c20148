import { screen, waitFor } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { CompanyLimits } from '../../src/api/contract/limits';
import { aLimit, field, nameInput, serveCreateVm, submit } from './support/create-vm-fixtures';
import { api, fail, http, server } from './support/msw';
import { locationOf, renderApp } from './support/render';
import { pick } from './support/users-fixtures';
import { serveVms } from './support/vms-fixtures';
import { typeText } from './support/typing';

const FRANKFURT = 4;
const BERLIN = 5;
const SMALL = 'Small (6 cores, 10 GB RAM, 180 GB disk)';
const MICRO = 'Micro (2 cores, 4 GB RAM, 80 GB disk)';

async function openCreate(limits: CompanyLimits['limits']) {
  const served = serveCreateVm({ limits });
  const view = await renderApp('/createVirtualMachine');
  await screen.findByRole('heading', { level: 2, name: 'Create Virtual Machine' });
  return { ...view, served };
}

/** The note on what is left; null when none shows. */
const note = () => screen.queryByRole('status', { name: 'Room left' });
/** Its sentences: what is left, then why the choice does not fit (when it does not). */
const noteLines = () => [...(note()?.querySelectorAll('p') ?? [])].map((p) => p.textContent);
const noteShown = async () => {
  await screen.findByRole('status', { name: 'Room left' });
  return noteLines();
};

async function chooseRegion(user: UserEvent, region = 'Frankfurt') {
  await typeText(user, nameInput(), 'web');
  await pick(user, field('Country'), 'Germany');
  await pick(user, field('Region'), region);
}

async function chooseSize(user: UserEvent, size = SMALL) {
  await pick(user, field('Image'), 'Ubuntu 24.04');
  await pick(user, field('Size'), size);
}

describe('Create Virtual Machine: what the limits leave', { timeout: 20_000 }, () => {
  it('says what is left once a region is chosen, then for the size and the instances chosen', async () => {
    const { user } = await openCreate([
      aLimit({ resource: 'vms', regionId: FRANKFURT, max: 10, used: 8 }),
      aLimit({ resource: 'vcpus', regionId: FRANKFURT, max: 20, used: 12 }),
      aLimit({ resource: 'ramGb', regionId: FRANKFURT, max: 64, used: 48 }),
      // Another region's limit says nothing about Frankfurt.
      aLimit({ resource: 'vms', regionId: BERLIN, max: 1, used: 1 }),
      // Nor does a limit on what creating a VM does not take.
      aLimit({ resource: 'networks', regionId: null, max: 1, used: 1 }),
    ]);
    await typeText(user, nameInput(), 'web');
    await pick(user, field('Country'), 'Germany');
    expect(note()).not.toBeInTheDocument();

    await pick(user, field('Region'), 'Frankfurt');
    expect(await noteShown()).toEqual([
      'You can create 2 more VMs in this region (8 vCPUs, 16 GB of RAM left).',
    ]);

    // Small takes 6 cores and 10 GB: one more fits in 8 cores and 16 GB.
    await chooseSize(user);
    expect(noteLines()).toEqual([
      'You can create 1 more VM of this size in this region (8 vCPUs, 16 GB of RAM left).',
    ]);
    await waitFor(() => expect(field('Number of Instances')).toBeEnabled());
    await pick(user, field('Number of Instances'), '1');
    expect(noteLines()).toHaveLength(1);

    await pick(user, field('Number of Instances'), '2');
    expect(noteLines()).toEqual([
      'You can create 1 more VM of this size in this region (8 vCPUs, 16 GB of RAM left).',
      '2 VMs of this size need 12 vCPUs, and 8 are left in this region. Choose 1 or fewer instances, or a smaller size.',
    ]);
    // Three are more than the 2 VMs left too, but the cores are what allow only one.
    await pick(user, field('Number of Instances'), '3');
    expect(noteLines()[1]).toBe(
      '3 VMs of this size need 18 vCPUs, and 8 are left in this region. Choose 1 or fewer instances, or a smaller size.',
    );

    // Two Micro (2 cores, 4 GB) fit.
    await pick(user, field('Size'), MICRO);
    expect(noteLines()).toEqual([
      'You can create 2 more VMs of this size in this region (8 vCPUs, 16 GB of RAM left).',
    ]);
    await pick(user, field('Number of Instances'), '3');
    expect(noteLines()).toEqual([
      'You can create 2 more VMs of this size in this region (8 vCPUs, 16 GB of RAM left).',
      '3 VMs are more than the 2 left in this region. Choose 2 or fewer instances.',
    ]);

    // Berlin has no room for any VM.
    await pick(user, field('Region'), 'Berlin');
    expect(noteLines()).toEqual([
      'You cannot create any more VMs in this region.',
      'Choose another region.',
    ]);
  });

  it('takes the all-regions limit where it leaves less than the region’s', async () => {
    const { user } = await openCreate([
      aLimit({ resource: 'vms', regionId: FRANKFURT, max: 10, used: 5 }),
      // The company's VMs everywhere: 1 more, wherever it goes.
      aLimit({ resource: 'vms', regionId: null, max: 12, used: 11, source: 'reseller' }),
      aLimit({ resource: 'vcpus', regionId: FRANKFURT, max: 40, used: 10 }),
      aLimit({ resource: 'vcpus', regionId: null, max: 100, used: 10 }),
    ]);
    await chooseRegion(user);
    expect(await noteShown()).toEqual(['You can create 1 more VM in this region (30 vCPUs left).']);
    // In Berlin only the all-regions limits bind.
    await pick(user, field('Region'), 'Berlin');
    expect(noteLines()).toEqual(['You can create 1 more VM in this region (90 vCPUs left).']);
  });

  it('counts a public IP address a VM while the toggle is on', async () => {
    const { user } = await openCreate([
      aLimit({ resource: 'vms', regionId: FRANKFURT, max: 10, used: 5 }),
      aLimit({ resource: 'publicIps', regionId: FRANKFURT, max: 3, used: 2 }),
    ]);
    await chooseRegion(user);
    expect(await noteShown()).toEqual([
      'You can create 1 more VM in this region (1 public IP address left).',
    ]);
    await user.click(screen.getByRole('switch', { name: /Allocate a public IP address/ }));
    expect(noteLines()).toEqual(['You can create 5 more VMs in this region.']);
  });

  it('says why nothing fits before the instances are chosen, and still lets the server decide', async () => {
    const { user, served } = await openCreate([
      aLimit({ resource: 'vcpus', regionId: FRANKFURT, max: 8, used: 4 }),
    ]);
    serveVms({ rows: [] });
    await chooseRegion(user);
    expect(await noteShown()).toEqual(['You have 4 vCPUs left in this region.']);
    await chooseSize(user);
    expect(noteLines()).toEqual([
      'You cannot create any more VMs of this size in this region (4 vCPUs left).',
      '1 VM of this size needs 6 vCPUs, and 4 are left in this region. Choose a smaller size or another region.',
    ]);

    // Advice only: Create stays enabled, and the server's answer shows under it.
    server.use(
      http.post(api('virtualMachines/create'), () =>
        fail(409, 'The company has reached its limit of 8 vCPUs in this region'),
      ),
    );
    await waitFor(() => expect(field('Number of Instances')).toBeEnabled());
    await pick(user, field('Number of Instances'), '1');
    expect(submit()).toBeEnabled();
    await user.click(submit());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The company has reached its limit of 8 vCPUs in this region',
    );
    expect(served.created).toEqual([]);
  });

  it('shows nothing when the company has no limits', async () => {
    const { user, served } = await openCreate([]);
    await chooseRegion(user);
    await chooseSize(user);
    await waitFor(() => expect(field('Number of Instances')).toBeEnabled());
    expect(served.limitRequests).toEqual(['limits']);
    expect(note()).not.toBeInTheDocument();
  });

  it('creates all the same when the limits cannot be had', async () => {
    const { user, served, router } = await openCreate([]);
    server.use(http.get(api('limits'), () => fail(500, 'Database unavailable')));
    serveVms({ rows: [] });
    await chooseRegion(user);
    await chooseSize(user);
    await waitFor(() => expect(field('Number of Instances')).toBeEnabled());
    await pick(user, field('Number of Instances'), '2');
    expect(note()).not.toBeInTheDocument();
    expect(screen.queryByText(/Database unavailable/)).not.toBeInTheDocument();

    await user.click(submit());
    expect(await screen.findByText('Virtual machine creation started')).toBeInTheDocument();
    expect(served.created).toMatchObject([{ regionId: FRANKFURT, numberOfInstances: 2 }]);
    await waitFor(() => expect(locationOf(router)).toBe('/virtualMachines'));
  });
});
