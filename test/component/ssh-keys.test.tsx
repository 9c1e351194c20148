import { notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { sshKeyMessages } from '../../src/api/contract/ssh-keys';
import { formatDate } from '../../src/components/date-format';
import { api, fail, http, ok, server } from './support/msw';
import { renderApp } from './support/render';
import { aUserDetails, serveUserPage } from './support/users-fixtures';
import { typeText } from './support/typing';

// Not returned: an awaited act() keeps its scope open into the next test's first steps.
afterEach(() => {
  act(() => notifications.clean());
});

const ED25519 =
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPDtxx+WK90b4qQA6fF6SHI5qGREjdVnxVjCmeDzmqwe ada@laptop';

/** A key as `GET /sshKeys/list` sends it (dates as ISO strings on the wire). */
const aKey = (id: number, overrides: Record<string, unknown> = {}) => ({
  id,
  name: 'Laptop',
  type: 'ed25519',
  bits: 256,
  fingerprint: 'SHA256:uonjntZqNp574kcYn+WJ+LVJsxNN/IaVpNYmlZ3gFvE',
  comment: 'ada@laptop',
  publicKey: ED25519,
  createdAt: '2026-11-20T08:00:00.000Z',
  ...overrides,
});

/** A small fake of the sshKeys routes over one user's keys, recording what is sent. */
function serveKeys(rows: ReturnType<typeof aKey>[]) {
  let store = rows.map((row) => ({ ...row }));
  const sent = { creates: [] as unknown[], deletes: [] as number[] };
  server.use(
    http.get(api('sshKeys/list'), () => ok(store)),
    http.post(api('sshKeys/create'), async ({ request }) => {
      const body = (await request.json()) as { name: string; publicKey: string };
      sent.creates.push(body);
      const key = aKey(100 + sent.creates.length, {
        name: body.name,
        type: 'rsa',
        bits: 4096,
        fingerprint: 'SHA256:newnewnewnewnewnewnewnewnewnewnewnewnewnew',
        comment: null,
        publicKey: body.publicKey,
        createdAt: '2026-11-29T10:00:00.000Z',
      });
      store = [key, ...store];
      return ok(key, sshKeyMessages.created);
    }),
    http.delete(api('sshKeys/delete/:id'), ({ params }) => {
      sent.deletes.push(Number(params.id));
      store = store.filter((row) => row.id !== Number(params.id));
      return ok(null, sshKeyMessages.deleted);
    }),
  );
  return { sent };
}

const table = () => screen.getByRole('table', { name: 'SSH keys' });
const rows = () => within(table()).getAllByRole('row').slice(1);
const rowOf = (text: string) => within(table()).getByText(text).closest('tr')!;

/** Ada (id 7) on her own profile with these keys. */
async function openOwnProfile(keys: ReturnType<typeof aKey>[], failure?: () => void) {
  serveUserPage({ users: [aUserDetails({ id: 7, firstName: 'Ada', lastName: 'Lovelace' })] });
  const { sent } = serveKeys(keys);
  failure?.();
  const view = await renderApp('/user?id=7');
  await screen.findByRole('heading', { level: 2, name: 'Ada Lovelace' });
  return { ...view, sent };
}

const twoKeys = () => [
  aKey(1),
  aKey(2, {
    name: 'Build server',
    type: 'ecdsa',
    bits: 384,
    fingerprint: 'SHA256:bltfUlJ6D+x5kjerR4YGc1Plr+dYIKoxDAgqT2BNmwY',
    comment: null,
    createdAt: '2026-10-01T12:00:00.000Z',
  }),
];

describe('Profile → SSH keys', { timeout: 20_000 }, () => {
  it('lists the keys: name, type and size, fingerprint, added', async () => {
    await openOwnProfile(twoKeys());
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Name', 'Type', 'Fingerprint', 'Added', 'Actions']);
    const laptop = within(rowOf('Laptop'));
    expect(laptop.getByText('ED25519')).toBeInTheDocument();
    expect(laptop.getByText('ada@laptop')).toBeInTheDocument();
    expect(
      laptop.getByText('SHA256:uonjntZqNp574kcYn+WJ+LVJsxNN/IaVpNYmlZ3gFvE'),
    ).toBeInTheDocument();
    expect(laptop.getByText(formatDate(new Date('2026-11-20T08:00:00.000Z')))).toBeInTheDocument();
    expect(within(rowOf('Build server')).getByText('ECDSA 384-bit')).toBeInTheDocument();
  });

  it('says so when there are none', async () => {
    await openOwnProfile([]);
    expect(
      await screen.findByText(
        'No SSH keys yet. Add your public key to log in to new virtual machines with it.',
      ),
    ).toBeInTheDocument();
  });

  it('adds a key from a name and the pasted line, and lists it', async () => {
    const { user, sent } = await openOwnProfile(twoKeys());
    await user.click(await screen.findByRole('button', { name: 'Add SSH key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add SSH key' });
    await typeText(user, within(dialog).getByRole('textbox', { name: 'Name' }), ' Work desktop ');
    await user.click(within(dialog).getByRole('textbox', { name: 'Public key' }));
    await user.paste(`  ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAACAQC7 me@work\n`);
    await user.click(within(dialog).getByRole('button', { name: 'Add key' }));

    expect(await screen.findByText(sshKeyMessages.created)).toBeInTheDocument();
    expect(sent.creates).toEqual([
      { name: 'Work desktop', publicKey: 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAACAQC7 me@work' },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(within(rowOf('Work desktop')).getByText('RSA 4096-bit')).toBeInTheDocument();
  });

  it('asks for both fields before sending anything', async () => {
    const { user, sent } = await openOwnProfile([]);
    await user.click(await screen.findByRole('button', { name: 'Add SSH key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add SSH key' });
    await user.click(within(dialog).getByRole('button', { name: 'Add key' }));
    expect(await within(dialog).findByText(sshKeyMessages.nameRequired)).toBeInTheDocument();
    expect(within(dialog).getByText(sshKeyMessages.keyRequired)).toBeInTheDocument();
    expect(sent.creates).toEqual([]);
  });

  it('shows what the server refuses at the key, keeps what was typed, and clears it on an edit', async () => {
    const { user } = await openOwnProfile([], () =>
      server.use(
        http.post(api('sshKeys/create'), () =>
          fail(400, sshKeyMessages.keyPrivate, [
            { field: 'publicKey', message: sshKeyMessages.keyPrivate },
          ]),
        ),
      ),
    );
    await user.click(await screen.findByRole('button', { name: 'Add SSH key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add SSH key' });
    const keyInput = within(dialog).getByRole('textbox', { name: 'Public key' });
    await typeText(user, within(dialog).getByRole('textbox', { name: 'Name' }), 'Oops');
    await user.click(keyInput);
    await user.paste('-----BEGIN OPENSSH PRIVATE KEY-----');
    await user.click(within(dialog).getByRole('button', { name: 'Add key' }));

    expect(await within(dialog).findByText(sshKeyMessages.keyPrivate)).toBeInTheDocument();
    expect(keyInput).toHaveAttribute('aria-invalid', 'true');
    expect(keyInput).toHaveValue('-----BEGIN OPENSSH PRIVATE KEY-----');
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveValue('Oops');
    // The message is at the field, not repeated in an alert.
    expect(within(dialog).getAllByText(sshKeyMessages.keyPrivate)).toHaveLength(1);

    await user.clear(keyInput);
    await typeText(user, keyInput, 'ssh-ed25519 AAAA');
    expect(within(dialog).queryByText(sshKeyMessages.keyPrivate)).not.toBeInTheDocument();
  });

  it('deletes a key once confirmed; cancelling keeps it', async () => {
    const { user, sent } = await openOwnProfile(twoKeys());
    await waitFor(() => expect(rows()).toHaveLength(2));

    await user.click(screen.getByRole('button', { name: 'Delete Laptop' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete Laptop?' });
    expect(dialog).toHaveTextContent('Virtual machines that already have it keep it.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sent.deletes).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Delete Laptop' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete Laptop?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(sshKeyMessages.deleted)).toBeInTheDocument();
    expect(sent.deletes).toEqual([1]);
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(within(table()).queryByText('Laptop')).not.toBeInTheDocument();
  });

  it('is not shown on another user’s page, even to an Admin', async () => {
    serveUserPage({
      users: [
        aUserDetails({ id: 7, firstName: 'Ada', lastName: 'Lovelace', isAdmin: true }),
        aUserDetails({ id: 3 }),
      ],
    });
    const { sent } = serveKeys(twoKeys());
    await renderApp('/user?id=3');
    await screen.findByRole('heading', { level: 2, name: 'Grace Hopper' });
    expect(screen.queryByRole('table', { name: 'SSH keys' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add SSH key' })).not.toBeInTheDocument();
    expect(sent.creates).toEqual([]);
  });
});
