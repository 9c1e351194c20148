import { screen, waitFor } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { field, nameInput, serveCreateVm, submit } from './support/create-vm-fixtures';
import { api, fail, http, server } from './support/msw';
import { locationOf, renderApp } from './support/render';
import { serveVms } from './support/vms-fixtures';
import { optionsOf, pick } from './support/users-fixtures';
import { typeText } from './support/typing';

const CASCADE = ['Country', 'Region', 'Image', 'Size', 'Number of Instances', 'Team (optional)'];
const enabled = () =>
  Object.fromEntries(CASCADE.map((label) => [label, !field(label).hasAttribute('disabled')]));
const valuesOf = () =>
  Object.fromEntries(CASCADE.map((label) => [label, (field(label) as HTMLInputElement).value]));
const labelsOf = async (user: UserEvent, label: string) => {
  await user.click(field(label));
  const labels = (await optionsOf(field(label))).map((option) => option.textContent);
  await user.keyboard('{Escape}');
  return labels;
};

async function openCreate() {
  const api = serveCreateVm();
  const view = await renderApp('/createVirtualMachine');
  await screen.findByRole('heading', { level: 2, name: 'Create Virtual Machine' });
  return { ...view, api };
}

/** Name, Germany, Frankfurt, Ubuntu, Small (its only provider is chosen for the user). */
async function chooseUpToSize(user: UserEvent, size = 'Small (6 cores, 10 GB RAM, 180 GB disk)') {
  await typeText(user, nameInput(), 'web');
  await pick(user, field('Country'), 'Germany');
  await pick(user, field('Region'), 'Frankfurt');
  await pick(user, field('Image'), 'Ubuntu 24.04');
  await pick(user, field('Size'), size);
}

describe('Create Virtual Machine: the cascade', { timeout: 20_000 }, () => {
  it('opens each dropdown once the ones before it are chosen, with the spec’s prompts', async () => {
    const { user, api } = await openCreate();
    expect(field('Country')).toHaveAttribute('placeholder', 'Please select a country');
    expect(field('Region')).toHaveAttribute('placeholder', 'Please select a region');
    expect(field('Image')).toHaveAttribute('placeholder', 'Please select an Image');
    expect(field('Size')).toHaveAttribute('placeholder', 'Please select a machine configuration');
    expect(field('Number of Instances')).toHaveAttribute('placeholder', '-- Select --');
    // A name first.
    expect(Object.values(enabled())).toEqual([false, false, false, false, false, false]);

    await typeText(user, nameInput(), 'web');
    expect(enabled()).toMatchObject({ Country: true, Region: false });
    // Only a name opens it: emptied, the country closes again.
    await user.clear(nameInput());
    expect(enabled()).toMatchObject({ Country: false });
    await typeText(user, nameInput(), 'web');
    expect(enabled()).toMatchObject({ Country: true });
    await pick(user, field('Country'), 'Germany');
    expect(enabled()).toMatchObject({ Region: true, Image: false });
    await pick(user, field('Region'), 'Frankfurt');
    expect(enabled()).toMatchObject({ Image: true, Size: false });
    await pick(user, field('Image'), 'Ubuntu 24.04');
    expect(enabled()).toMatchObject({ Size: true, 'Number of Instances': false });
    expect(await labelsOf(user, 'Size')).toEqual([
      'Micro (2 cores, 4 GB RAM, 80 GB disk)',
      'Extra Small (4 cores, 8 GB RAM, 120 GB disk)',
      'Small (6 cores, 10 GB RAM, 180 GB disk)',
      'Medium (8 cores, 12 GB RAM, 240 GB disk)',
      'Large (12 cores, 48 GB RAM, 300 GB disk)',
    ]);
    await pick(user, field('Size'), 'Small (6 cores, 10 GB RAM, 180 GB disk)');
    // One provider: chosen for the user, no dropdown.
    await waitFor(() => expect(enabled()).toMatchObject({ 'Number of Instances': true }));
    expect(screen.queryByRole('combobox', { name: 'Provider' })).not.toBeInTheDocument();
    expect(enabled()).toMatchObject({ 'Team (optional)': false });
    await pick(user, field('Number of Instances'), '2');
    expect(enabled()).toMatchObject({ 'Team (optional)': true });

    expect(api.asked).toEqual([
      'countries',
      'regions 1',
      'images 4',
      'sizes 4 imageId=10',
      'providers 4 imageId=10&configurationId=3',
    ]);
  });

  it('offers 1 to 10 instances', async () => {
    const { user } = await openCreate();
    await chooseUpToSize(user);
    await waitFor(() => expect(enabled()).toMatchObject({ 'Number of Instances': true }));
    expect(await labelsOf(user, 'Number of Instances')).toEqual(
      Array.from({ length: 10 }, (_, i) => String(i + 1)),
    );
  });

  it('clears every later choice when an earlier one changes', async () => {
    const { user } = await openCreate();
    await chooseUpToSize(user);
    await pick(user, field('Number of Instances'), '3');
    await pick(user, field('Team (optional)'), 'Data');
    expect(valuesOf()).toEqual({
      Country: 'Germany',
      Region: 'Frankfurt',
      Image: 'Ubuntu 24.04',
      Size: 'Small (6 cores, 10 GB RAM, 180 GB disk)',
      'Number of Instances': '3',
      'Team (optional)': 'Data',
    });

    // The instance count clears the team.
    await pick(user, field('Number of Instances'), '4');
    expect(valuesOf()).toMatchObject({ 'Number of Instances': '4', 'Team (optional)': '' });

    // The size clears the instance count.
    await pick(user, field('Team (optional)'), 'Data');
    await pick(user, field('Size'), 'Micro (2 cores, 4 GB RAM, 80 GB disk)');
    expect(valuesOf()).toMatchObject({ 'Number of Instances': '', 'Team (optional)': '' });

    // The image clears the size.
    await pick(user, field('Image'), 'Debian 12');
    expect(valuesOf()).toMatchObject({ Image: 'Debian 12', Size: '' });
    expect(enabled()).toMatchObject({ Size: true, 'Number of Instances': false });

    // The region clears the image and loads the new region's images.
    await pick(user, field('Region'), 'Berlin');
    expect(valuesOf()).toMatchObject({ Region: 'Berlin', Image: '' });
    expect(await labelsOf(user, 'Image')).toEqual(['Rocky Linux 9']);

    // The country clears the region and all after it.
    await pick(user, field('Image'), 'Rocky Linux 9');
    await pick(user, field('Country'), 'United States');
    expect(valuesOf()).toEqual({
      Country: 'United States',
      Region: '',
      Image: '',
      Size: '',
      'Number of Instances': '',
      'Team (optional)': '',
    });
    expect(enabled()).toMatchObject({ Region: true, Image: false, Size: false });
    expect(await labelsOf(user, 'Region')).toEqual(['Virginia']);
  });

  it('never shows a slow answer for a region chosen before', async () => {
    const { user, api } = await openCreate();
    await typeText(user, nameInput(), 'web');
    await pick(user, field('Country'), 'Germany');
    const releaseFrankfurt = api.holdImages(4);
    await pick(user, field('Region'), 'Frankfurt');
    await waitFor(() => expect(api.asked).toContain('images 4'));
    await pick(user, field('Region'), 'Berlin');
    expect(await labelsOf(user, 'Image')).toEqual(['Rocky Linux 9']);
    releaseFrankfurt();
    await waitFor(() => expect(api.asked.filter((a) => a === 'images 4')).toHaveLength(1));
    expect(await labelsOf(user, 'Image')).toEqual(['Rocky Linux 9']);
  });

  it('asks for a provider when there is a choice of them', async () => {
    const { user, api } = await openCreate();
    serveVms({ rows: [] });
    await chooseUpToSize(user, 'Medium (8 cores, 12 GB RAM, 240 GB disk)');
    const provider = await screen.findByRole('combobox', { name: 'Provider' });
    expect(enabled()).toMatchObject({ 'Number of Instances': false });
    await pick(user, provider, 'metal');
    expect(enabled()).toMatchObject({ 'Number of Instances': true });
    await pick(user, field('Number of Instances'), '1');
    await user.click(submit());
    await waitFor(() => expect(api.created).toHaveLength(1));
    expect(api.created[0]).toMatchObject({ configurationId: 4, providerId: 2 });
  });

  it('says when the chosen size has no provider', async () => {
    const { user } = await openCreate();
    await chooseUpToSize(user, 'Large (12 cores, 48 GB RAM, 300 GB disk)');
    expect(
      await screen.findByText('Chosen configuration has no possible provider'),
    ).toBeInTheDocument();
    expect(enabled()).toMatchObject({ 'Number of Instances': false });
  });
});

describe('Create Virtual Machine: failed lookups', { timeout: 20_000 }, () => {
  it('shows a failed image list under the spec’s lead', async () => {
    const { user } = await openCreate();
    server.use(http.get(api('virtualMachines/listImages/:id'), () => fail(503, 'Provider down')));
    await typeText(user, nameInput(), 'web');
    await pick(user, field('Country'), 'Germany');
    await pick(user, field('Region'), 'Frankfurt');
    expect(
      await screen.findByText('Error fetching virtual machines images: Provider down'),
    ).toBeInTheDocument();
  });

  it('shows a failed size list under the spec’s lead', async () => {
    const { user } = await openCreate();
    server.use(
      http.get(api('virtualMachines/fetchVirtualMachineConfigurations/:regionId'), () =>
        fail(503, 'Provider down'),
      ),
    );
    await typeText(user, nameInput(), 'web');
    await pick(user, field('Country'), 'Germany');
    await pick(user, field('Region'), 'Frankfurt');
    await pick(user, field('Image'), 'Ubuntu 24.04');
    expect(
      await screen.findByText('Error fetching configurations: Provider down'),
    ).toBeInTheDocument();
  });
});

describe('Create Virtual Machine: submitting', { timeout: 20_000 }, () => {
  it('creates the VMs with the public IP on by default, toasts and goes to the list', async () => {
    const { user, api, router } = await openCreate();
    serveVms({ rows: [] });
    const toggle = screen.getByRole('switch', { name: /Allocate a public IP address/ });
    expect(toggle).toBeChecked();
    expect(
      screen.getByText(
        'Each virtual machine gets a unique public IPv4 address, translated to its private address.',
      ),
    ).toBeInTheDocument();
    await chooseUpToSize(user);
    await pick(user, field('Number of Instances'), '2');
    await pick(user, field('Team (optional)'), 'Platform');
    await user.click(submit());

    expect(await screen.findByText('Virtual machine creation started')).toBeInTheDocument();
    expect(api.created).toEqual([
      {
        name: 'web',
        regionId: 4,
        imageId: 10,
        configurationId: 3,
        providerId: 1,
        numberOfInstances: 2,
        teamId: 5,
        allocatePublicIp: true,
      },
    ]);
    await waitFor(() => expect(locationOf(router)).toBe('/virtualMachines'));
  });

  it('sends a private-only VM without a team when the toggle is off', async () => {
    const { user, api } = await openCreate();
    serveVms({ rows: [] });
    await user.click(screen.getByRole('switch', { name: /Allocate a public IP address/ }));
    expect(
      screen.getByText(
        'Each virtual machine gets a private address only, with outbound internet access.',
      ),
    ).toBeInTheDocument();
    await chooseUpToSize(user);
    await pick(user, field('Number of Instances'), '1');
    await user.click(submit());
    await waitFor(() => expect(api.created).toHaveLength(1));
    expect(api.created[0]).toEqual({
      name: 'web',
      regionId: 4,
      imageId: 10,
      configurationId: 3,
      providerId: 1,
      numberOfInstances: 1,
      allocatePublicIp: false,
    });
  });

  it('says "Please fill in empty fields" under the button and sends nothing', async () => {
    const { user, api } = await openCreate();
    await typeText(user, nameInput(), 'web');
    await pick(user, field('Country'), 'Germany');
    await user.click(submit());
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Please fill in empty fields');
    // Under the submit button.
    expect(submit().compareDocumentPosition(alert) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(api.created).toEqual([]);
  });

  it('applies the contract’s name rule before sending', async () => {
    const { user, api } = await openCreate();
    await typeText(user, nameInput(), 'web server');
    await pick(user, field('Country'), 'Germany');
    await pick(user, field('Region'), 'Frankfurt');
    await pick(user, field('Image'), 'Ubuntu 24.04');
    await pick(user, field('Size'), 'Small (6 cores, 10 GB RAM, 180 GB disk)');
    await pick(user, field('Number of Instances'), '1');
    await user.click(submit());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'VM name can contain only letters, digits, dots, underscores and hyphens',
    );
    expect(api.created).toEqual([]);

    // From the first submit on, the message follows the name as it is edited: the space removed.
    await user.click(nameInput());
    await user.keyboard('{End}{ArrowLeft>6/}{Backspace}');
    expect(nameInput()).toHaveValue('webserver');
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    expect(api.created).toEqual([]);
  });

  it('shows the server’s refusal under the button and keeps the choices', async () => {
    const { user } = await openCreate();
    server.use(
      http.post(api('virtualMachines/create'), () =>
        fail(400, 'The provider does not offer this configuration in this region'),
      ),
    );
    await chooseUpToSize(user);
    await pick(user, field('Number of Instances'), '1');
    await user.click(submit());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The provider does not offer this configuration in this region',
    );
    expect(valuesOf()).toMatchObject({ Size: 'Small (6 cores, 10 GB RAM, 180 GB disk)' });

    // A later local problem shows together with the server's answer.
    await pick(user, field('Size'), 'Micro (2 cores, 4 GB RAM, 80 GB disk)');
    await user.click(submit());
    const alert = await screen.findByRole('alert');
    await waitFor(() => expect(alert).toHaveTextContent('Please fill in empty fields'));
    expect(alert).toHaveTextContent(
      'The provider does not offer this configuration in this region',
    );
  });

  it('goes back one step from the arrow', async () => {
    serveCreateVm();
    serveVms({ rows: [] });
    const { user, router } = await renderApp('/virtualMachines');
    await screen.findByText('No virtual machines found');
    await user.click(screen.getByRole('button', { name: 'Create Virtual Machine' }));
    await screen.findByRole('heading', { level: 2, name: 'Create Virtual Machine' });
    await user.click(screen.getByRole('button', { name: 'Go back' }));
    await waitFor(() => expect(locationOf(router)).toBe('/virtualMachines'));
  });
});
