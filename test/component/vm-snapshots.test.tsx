import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SnapshotList, VmSnapshot } from '../../src/api/contract/vm-snapshots';
import { ROLE } from '../../src/api/contract/roles';
import { api, fail, http, ok, server } from './support/msw';
import { renderApp } from './support/render';
import { signIn } from './support/teams-fixtures';
import { aVmDetails, serveVm } from './support/vms-fixtures';
import { typeText } from './support/typing';

const aSnapshot = (id: number, overrides: Partial<VmSnapshot> = {}): VmSnapshot => ({
  id,
  vmId: 12,
  name: `snap-${id}`,
  status: 'available',
  statusMessage: null,
  sizeBytes: 1_503_238_553,
  createdAt: new Date('2026-02-01T10:00:00.000Z'),
  ...overrides,
});

/** Serves the VM's snapshots; `set` changes what later answers hold. */
function serveSnapshots(initial: VmSnapshot[]) {
  let current = initial;
  let reads = 0;
  server.use(
    http.get(api('virtualMachines/snapshots/list/:vmId'), () => {
      reads += 1;
      return ok<SnapshotList>({ snapshots: current, maxPerVm: 5 });
    }),
  );
  return { set: (next: VmSnapshot[]) => (current = next), reads: () => reads };
}

const card = async () => {
  const heading = await screen.findByText('Snapshots', { selector: 'h2, h3, h4' });
  return heading.closest('[data-table], .mantine-Paper-root, section') as HTMLElement;
};

describe('VM details: the Snapshots card', { timeout: 15_000 }, () => {
  it('lists each snapshot with its size, time and status', async () => {
    signIn();
    serveVm();
    serveSnapshots([
      aSnapshot(2, { name: 'after-upgrade', status: 'creating', sizeBytes: null }),
      aSnapshot(1, { name: 'before-upgrade' }),
      aSnapshot(3, {
        name: 'broken',
        sizeBytes: null,
        status: 'error',
        statusMessage: 'Snapshot failed: Disk is busy',
      }),
    ]);
    await renderApp('/virtualMachineDetails/12');
    const within_ = within(await card());
    expect(await within_.findByText('before-upgrade')).toBeInTheDocument();
    expect(within_.getByText('1.4 GB')).toBeInTheDocument();
    expect(within_.getByText('Creating')).toBeInTheDocument();
    expect(within_.getByText('Available')).toBeInTheDocument();
    expect(within_.getByText('Snapshot failed: Disk is busy')).toBeInTheDocument();
    // Something is under way: nothing else may start.
    expect(within_.getByRole('button', { name: 'Take snapshot' })).toBeDisabled();
    expect(within_.getByText('Another snapshot operation is under way')).toBeInTheDocument();
    expect(within_.getByRole('button', { name: 'Restore before-upgrade' })).toBeDisabled();
  });

  it('takes a snapshot by name, keeping the dialog and the name on a refusal', async () => {
    const user = userEvent.setup();
    signIn();
    serveVm();
    const snapshots = serveSnapshots([]);
    const bodies: unknown[] = [];
    let refuse = true;
    server.use(
      http.post(api('virtualMachines/snapshots/create/:vmId'), async ({ request, params }) => {
        bodies.push({ vmId: params.vmId, body: await request.json() });
        if (refuse) return fail(409, 'The company has reached its limit of 2 snapshots');
        snapshots.set([aSnapshot(7, { name: 'pre-deploy', status: 'creating', sizeBytes: null })]);
        return ok({ id: 7 }, 'The snapshot is being taken');
      }),
    );
    await renderApp('/virtualMachineDetails/12');
    expect(await screen.findByText('No snapshots yet')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Take snapshot' }));
    const dialog = await screen.findByRole('dialog', { name: 'Take snapshot' });
    // An empty name is refused here, without a request.
    await user.click(within(dialog).getByRole('button', { name: 'Take snapshot' }));
    expect(within(dialog).getByText('Snapshot name is required')).toBeInTheDocument();
    expect(bodies).toEqual([]);

    await typeText(user, within(dialog).getByLabelText(/Name/), 'pre-deploy');
    await user.click(within(dialog).getByRole('button', { name: 'Take snapshot' }));
    expect(
      await within(dialog).findByText(
        'Error taking snapshot: The company has reached its limit of 2 snapshots',
      ),
    ).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/Name/)).toHaveValue('pre-deploy');

    refuse = false;
    await user.click(within(dialog).getByRole('button', { name: 'Take snapshot' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodies.at(-1)).toEqual({ vmId: '12', body: { name: 'pre-deploy' } });
    expect(await screen.findByText('The snapshot is being taken')).toBeInTheDocument();
    expect(await within(await card()).findByText('Creating')).toBeInTheDocument();
  });

  it('asks before a restore, says what is lost, and restores', async () => {
    const user = userEvent.setup();
    signIn();
    serveVm();
    serveSnapshots([aSnapshot(1, { name: 'before-upgrade' })]);
    const restored: unknown[] = [];
    server.use(
      http.post(api('virtualMachines/snapshots/restore/:snapshotId'), ({ params }) => {
        restored.push(params.snapshotId);
        return ok(null, "The VM's disk is being restored from the snapshot");
      }),
    );
    await renderApp('/virtualMachineDetails/12');
    await user.click(
      await screen.findByRole('button', { name: 'Restore before-upgrade' }, { timeout: 5000 }),
    );
    const dialog = await screen.findByRole(
      'dialog',
      { name: 'Restore before-upgrade?' },
      { timeout: 5000 },
    );
    expect(dialog).toHaveTextContent('everything written since is lost');
    expect(restored).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(restored).toEqual(['1']));
    expect(
      await screen.findByText("The VM's disk is being restored from the snapshot"),
    ).toBeInTheDocument();
  });

  it('keeps a refused delete in its dialog with the reason', async () => {
    const user = userEvent.setup();
    signIn();
    serveVm();
    serveSnapshots([aSnapshot(1, { name: 'old' })]);
    server.use(
      http.delete(api('virtualMachines/snapshots/delete/:snapshotId'), () =>
        fail(409, 'The VM is busy with another operation; try again when it ends'),
      ),
    );
    await renderApp('/virtualMachineDetails/12');
    await user.click(await screen.findByRole('button', { name: 'Delete old' }, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete old?' }, { timeout: 5000 });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(
      await within(dialog).findByText(/Error deleting snapshot: The VM is busy/),
    ).toBeInTheDocument();
  });

  it('says why no snapshot can be taken at the per-VM limit', async () => {
    signIn();
    serveVm();
    serveSnapshots([1, 2, 3, 4, 5].map((id) => aSnapshot(id)));
    await renderApp('/virtualMachineDetails/12');
    expect(
      await screen.findByText('This VM keeps at most 5 snapshots: delete one to take another'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Take snapshot' })).toBeDisabled();
  });

  it('offers a Viewer the list only', async () => {
    signIn();
    serveVm(aVmDetails({ yourRoleId: ROLE.viewer }));
    serveSnapshots([aSnapshot(1, { name: 'seen' })]);
    await renderApp('/virtualMachineDetails/12');
    expect(await screen.findByText('seen')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Take snapshot' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Restore seen' })).not.toBeInTheDocument();
  });
});
