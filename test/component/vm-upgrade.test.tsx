import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { api, fail, http, ok, server } from './support/msw';
import { renderApp } from './support/render';
import { signIn, type Recorded } from './support/teams-fixtures';
import { recordAction, serveVm, sizes } from './support/vms-fixtures';

function serveSizes() {
  const queries: (Recorded & { regionId: unknown })[] = [];
  server.use(
    http.get(
      api('virtualMachines/fetchVirtualMachineConfigurations/:regionId'),
      ({ request, params }) => {
        queries.push({
          regionId: params.regionId,
          ...Object.fromEntries(new URL(request.url).searchParams),
        });
        return ok(sizes);
      },
    ),
  );
  return { queries };
}

async function openUpgrade() {
  signIn();
  const vm = serveVm();
  const catalog = serveSizes();
  const view = await renderApp('/virtualMachineDetails/12');
  await view.user.click(await screen.findByRole('button', { name: 'Upgrade' }));
  const dialog = await screen.findByRole('dialog', { name: 'Upgrade web-01' });
  return { ...view, vm, catalog, dialog };
}

describe('VM details: upgrade', { timeout: 15_000 }, () => {
  it('offers only larger sizes, upgrades to the chosen one, and says it takes up to a minute', async () => {
    const { user, dialog, catalog, vm } = await openUpgrade();
    const upgrade = recordAction('put', 'virtualMachines/changeConfiguration', () =>
      ok(null, 'The upgrade has started'),
    );
    // The VM is Small (6 cores): Micro, Extra Small and Small itself are not upgrades.
    const choices = await within(dialog).findAllByRole('radio');
    expect(choices.map((radio) => radio.closest('.mantine-Radio-root')!.textContent)).toEqual([
      'Medium (8 cores, 12 GB RAM, 240 GB disk)',
      'Large (12 cores, 48 GB RAM, 300 GB disk)',
    ]);
    expect(catalog.queries).toEqual([{ regionId: '4', vmId: '12' }]);
    const upgradeButton = within(dialog).getByRole('button', { name: 'Upgrade' });
    expect(upgradeButton).toBeDisabled();

    await user.click(within(dialog).getByRole('radio', { name: /Large/ }));
    const before = vm.requests();
    await user.click(upgradeButton);

    expect(await within(dialog).findByText(/can take up to a minute/)).toBeInTheDocument();
    expect(dialog).toHaveTextContent('you can close this window');
    expect(upgrade.calls).toEqual([{ id: undefined, body: { id: 12, configurationId: 5 } }]);
    // The details reload (the VM goes Resizing on the server).
    await waitFor(() => expect(vm.requests()).toBeGreaterThan(before));

    await user.click(within(dialog).getByRole('button', { name: 'Return' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('keeps the form open with the server’s reason when the upgrade is refused', async () => {
    const { user, dialog } = await openUpgrade();
    recordAction('put', 'virtualMachines/changeConfiguration', () =>
      fail(409, 'The VM is busy with another operation; try again when it ends'),
    );
    await user.click(await within(dialog).findByRole('radio', { name: /Medium/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Upgrade' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'The VM is busy with another operation; try again when it ends',
    );
    expect(within(dialog).getByRole('radio', { name: /Medium/ })).toBeChecked();
    expect(within(dialog).getByRole('button', { name: 'Upgrade' })).toBeEnabled();
    expect(within(dialog).queryByText(/up to a minute/)).not.toBeInTheDocument();
  });

  it('says when there is no larger size', async () => {
    signIn();
    serveVm();
    server.use(
      http.get(api('virtualMachines/fetchVirtualMachineConfigurations/:regionId'), () =>
        ok(sizes.slice(0, 3)),
      ),
    );
    const { user } = await renderApp('/virtualMachineDetails/12');
    await user.click(await screen.findByRole('button', { name: 'Upgrade' }));
    const dialog = await screen.findByRole('dialog');
    expect(
      await within(dialog).findByText('No larger size is available for this virtual machine.'),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Upgrade' })).toBeDisabled();
  });

  it('shows a failed size list under the spec’s lead', async () => {
    signIn();
    serveVm();
    server.use(
      http.get(api('virtualMachines/fetchVirtualMachineConfigurations/:regionId'), () =>
        fail(503, 'Provider unavailable'),
      ),
    );
    const { user } = await renderApp('/virtualMachineDetails/12');
    await user.click(await screen.findByRole('button', { name: 'Upgrade' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('Error fetching configurations:')).toBeInTheDocument();
    expect(within(dialog).getByText('Provider unavailable')).toBeInTheDocument();
  });
});
