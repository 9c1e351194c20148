import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { vmMessages } from '../../src/api/contract/vms';
import { field, nameInput, serveCreateVm, submit } from './support/create-vm-fixtures';
import { api, http, ok, server } from './support/msw';
import { renderApp } from './support/render';
import { signIn } from './support/teams-fixtures';
import { optionsOf, pick } from './support/users-fixtures';
import { aVmDetails, serveVm, serveVms } from './support/vms-fixtures';
import { typeText } from './support/typing';

const aKey = (id: number, name: string, type = 'ed25519', bits = 256) => ({
  id,
  name,
  type,
  bits,
  fingerprint: `SHA256:${String(id).repeat(43).slice(0, 43)}`,
  comment: null,
  publicKey: `ssh-${type} AAAA${id}`,
  createdAt: '2026-11-20T08:00:00.000Z',
});

const keysPicker = () => screen.getByRole('combobox', { name: 'SSH keys' });
const generate = () => screen.getByRole('checkbox', { name: 'Generate a key pair as well' });

async function openCreate(sshKeys: ReturnType<typeof aKey>[]) {
  const api = serveCreateVm({ sshKeys });
  const view = await renderApp('/createVirtualMachine');
  await screen.findByRole('heading', { level: 2, name: 'Create Virtual Machine' });
  return { ...view, api };
}

async function chooseOrder(user: UserEvent) {
  await typeText(user, nameInput(), 'web');
  await pick(user, field('Country'), 'Germany');
  await pick(user, field('Region'), 'Frankfurt');
  await pick(user, field('Image'), 'Ubuntu 24.04');
  await pick(user, field('Size'), 'Small (6 cores, 10 GB RAM, 180 GB disk)');
  await waitFor(() => expect(field('Number of Instances')).not.toBeDisabled());
  await pick(user, field('Number of Instances'), '1');
}

describe('Create Virtual Machine: SSH keys', { timeout: 60_000 }, () => {
  it('offers the account keys, and sends those chosen with or without a generated pair', async () => {
    const { user, api } = await openCreate([
      aKey(1, 'Laptop'),
      aKey(2, 'Build server', 'ecdsa', 384),
      aKey(3, 'Old desktop', 'rsa', 4096),
    ]);
    serveVms({ rows: [] });
    expect(generate()).toBeChecked();
    await chooseOrder(user);

    await user.click(keysPicker());
    expect((await optionsOf(keysPicker())).map((option) => option.textContent)).toEqual([
      'Laptop (ED25519)',
      'Build server (ECDSA 384-bit)',
      'Old desktop (RSA 4096-bit)',
    ]);
    await pick(user, keysPicker(), 'Build server (ECDSA 384-bit)');
    await pick(user, keysPicker(), 'Laptop (ED25519)');
    await user.keyboard('{Escape}');
    await user.click(generate());
    expect(screen.getByText(/Only the chosen keys can log in/)).toBeInTheDocument();
    await user.click(submit());

    await waitFor(() => expect(api.created).toHaveLength(1));
    expect(api.created[0]).toMatchObject({ sshKeyIds: [2, 1], generateKeyPair: false });
  });

  it('refuses neither keys nor a generated pair before sending', async () => {
    const { user, api } = await openCreate([aKey(1, 'Laptop')]);
    await chooseOrder(user);
    await user.click(generate());
    await user.click(submit());
    const message = await screen.findAllByText(vmMessages.noKeyChosen);
    expect(message.length).toBeGreaterThan(0);
    expect(keysPicker()).toHaveAttribute('aria-invalid', 'true');
    expect(api.created).toEqual([]);

    // Choosing a key is enough.
    await pick(user, keysPicker(), 'Laptop (ED25519)');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByText(vmMessages.noKeyChosen)).not.toBeInTheDocument());
  });

  it('points a user without keys to their Profile', async () => {
    const { user, api } = await openCreate([]);
    await waitFor(() => expect(keysPicker()).toBeDisabled());
    const hint = screen.getByText(/You have no SSH keys yet/);
    const link = within(hint).getByRole('link', { name: 'your Profile' });
    expect(link.getAttribute('href')).toMatch(/^\/user\?id=\d+$/);
    // The generated pair alone, as before: nothing about keys is sent.
    serveVms({ rows: [] });
    await chooseOrder(user);
    await user.click(submit());
    await waitFor(() => expect(api.created).toHaveLength(1));
    expect(api.created[0]).not.toHaveProperty('sshKeyIds');
    expect(api.created[0]).not.toHaveProperty('generateKeyPair');
  });
});

describe('VM details: a VM without a generated key pair', () => {
  it('does not offer Download Private Key', async () => {
    signIn();
    serveVm(aVmDetails({ virtualMachine: { hasPrivateKey: false } }));
    // The page's other cards, which have tests of their own.
    server.use(http.get(api('virtualMachines/snapshots/list/:id'), () => ok([])));
    await renderApp('/virtualMachineDetails/12');
    await screen.findByRole('heading', { level: 2, name: 'web-01' });
    await screen.findByRole('button', { name: 'Upgrade' });
    expect(screen.queryByRole('button', { name: 'Download Private Key' })).not.toBeInTheDocument();
  });
});
