import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { api, fail, http, ok, server } from './support/msw';
import { renderApp } from './support/render';
import { signIn } from './support/teams-fixtures';
import { pick } from './support/users-fixtures';
import { aVmDetails, recordAction, serveVm } from './support/vms-fixtures';
import { typeText } from './support/typing';

const images = [
  { id: 40, name: 'Debian 12' },
  { id: 41, name: 'Ubuntu 24.04' },
  { id: 42, name: 'Rocky Linux 9' },
];
const keys = [
  {
    id: 7,
    name: 'laptop',
    type: 'ed25519',
    bits: 256,
    fingerprint: 'SHA256:abc',
    comment: 'me@laptop',
    publicKey: 'ssh-ed25519 AAAA me@laptop',
    createdAt: '2026-01-02T10:00:00.000Z',
  },
];

function serveCatalog() {
  const queries: Record<string, string>[] = [];
  server.use(
    http.get(api('virtualMachines/listImages/:regionId'), ({ request, params }) => {
      queries.push({
        regionId: String(params.regionId),
        ...Object.fromEntries(new URL(request.url).searchParams),
      });
      return ok(images);
    }),
    http.get(api('sshKeys/list'), () => ok(keys)),
  );
  return { queries };
}

async function openReinstall(details = aVmDetails()) {
  signIn();
  const vm = serveVm(details);
  const catalog = serveCatalog();
  const view = await renderApp('/virtualMachineDetails/12');
  await view.user.click(await screen.findByRole('button', { name: 'Reinstall' }));
  const dialog = await screen.findByRole('dialog', { name: 'Reinstall web-01' });
  return { ...view, vm, catalog, dialog };
}

describe('VM details: reinstall', { timeout: 20_000 }, () => {
  it('offers the provider’s images with the current one chosen, and waits for the typed name', async () => {
    const { user, dialog, catalog } = await openReinstall();
    const reinstall = recordAction('post', 'virtualMachines/reinstall/:id', () =>
      ok(null, 'The reinstall has started'),
    );
    expect(dialog).toHaveTextContent('Everything on its disk is erased');
    const image = within(dialog).getByRole('combobox', { name: 'Image' });
    await waitFor(() => expect(image).toHaveValue('Ubuntu 24.04'));
    expect(catalog.queries).toEqual([{ regionId: '4', vmId: '12' }]);

    const confirm = within(dialog).getByRole('button', { name: 'Reinstall' });
    expect(confirm).toBeDisabled();
    const typed = within(dialog).getByRole('textbox', { name: /to confirm/ });
    await typeText(user, typed, 'web-0');
    expect(confirm).toBeDisabled();
    // Enter does nothing either while the name is not whole.
    await user.keyboard('{Enter}');
    expect(reinstall.calls).toEqual([]);
    await typeText(user, typed, '1');
    expect(confirm).toBeEnabled();

    await pick(user, image, 'Debian 12');
    await user.click(confirm);
    expect(await within(dialog).findByRole('status')).toHaveTextContent(
      'The reinstall has started',
    );
    expect(dialog).toHaveTextContent('Download Private Key gives the new private key');
    expect(reinstall.calls).toEqual([{ id: '12', body: { imageId: 40 } }]);

    await user.click(within(dialog).getByRole('button', { name: 'Return' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('sends the chosen account keys instead of a new key pair', async () => {
    const { user, dialog } = await openReinstall();
    const reinstall = recordAction('post', 'virtualMachines/reinstall/:id');
    const picker = within(dialog).getByRole('combobox', { name: 'SSH keys' });
    await waitFor(() => expect(picker).toBeEnabled());
    await pick(user, picker, 'laptop (ED25519)');
    await user.keyboard('{Escape}');
    expect(dialog).toHaveTextContent('no key pair is generated');
    await typeText(user, within(dialog).getByRole('textbox', { name: /to confirm/ }), 'web-01');
    await user.click(within(dialog).getByRole('button', { name: 'Reinstall' }));
    expect(await within(dialog).findByRole('status')).toHaveTextContent(
      'the SSH keys you chose log in',
    );
    expect(reinstall.calls).toEqual([{ id: '12', body: { imageId: 41, sshKeyIds: [7] } }]);
  });

  it('keeps the form as it was, with the server’s reason, when the reinstall is refused', async () => {
    const { user, dialog } = await openReinstall();
    recordAction('post', 'virtualMachines/reinstall/:id', () =>
      fail(409, 'The VM is busy with another operation; try again when it ends'),
    );
    const typed = within(dialog).getByRole('textbox', { name: /to confirm/ });
    await typeText(user, typed, 'web-01');
    await user.click(within(dialog).getByRole('button', { name: 'Reinstall' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Error reinstalling virtual machine: The VM is busy with another operation; try again when it ends',
    );
    expect(typed).toHaveValue('web-01');
    expect(within(dialog).getByRole('button', { name: 'Reinstall' })).toBeEnabled();
    expect(within(dialog).queryByRole('status')).not.toBeInTheDocument();
  });

  it('is offered to a Viewer not at all, and disabled while another operation runs', async () => {
    signIn();
    const vm = serveVm(aVmDetails({ yourRoleId: 4 }));
    serveCatalog();
    await renderApp('/virtualMachineDetails/12');
    await screen.findByText(/lets you see it, not change it/);
    expect(screen.queryByRole('button', { name: 'Reinstall' })).not.toBeInTheDocument();

    vm.set(aVmDetails({ status: 'Reinstalling' }));
    await screen.findByRole('button', { name: 'Refresh' }).then((b) => b.click());
    const button = await screen.findByRole('button', { name: 'Reinstall' });
    expect(button).toBeDisabled();
  });
});
