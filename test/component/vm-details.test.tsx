import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDateTime } from '../../src/components/date-format';
import { vmKeys } from '../../src/queries/vms';
import { api, fail, http, ok, server } from './support/msw';
import { locationOf, renderApp } from './support/render';
import { signIn } from './support/teams-fixtures';
import { aVmDetails, serveVm } from './support/vms-fixtures';

/** The value the Details card shows for a term. */
const valueOf = (term: string) => {
  const dt = screen.getByText(term, { selector: 'dt' });
  return dt.nextElementSibling as HTMLElement;
};

afterEach(() => vi.restoreAllMocks());

describe('VM details: the card', { timeout: 15_000 }, () => {
  it('shows what the VM is, its usage and its status', async () => {
    signIn();
    serveVm();
    await renderApp('/virtualMachineDetails/12');
    expect(await screen.findByRole('heading', { level: 2, name: 'web-01' })).toBeInTheDocument();
    expect(screen.getByText('Running', { selector: '[data-status] *' })).toBeInTheDocument();
    expect(
      Object.fromEntries(
        [
          'Name',
          'Country',
          'Size type',
          'Region',
          'Image',
          'Created At',
          'CPU',
          'Last Updated At',
          'RAM in GB',
          'Username',
          'Disk in GB',
        ].map((term) => [term, valueOf(term).textContent]),
      ),
    ).toEqual({
      Name: 'web-01',
      Country: 'Germany',
      'Size type': 'Small',
      Region: 'Frankfurt',
      Image: 'Ubuntu 24.04',
      'Created At': formatDateTime(new Date('2026-01-05T08:30:00.000Z')),
      CPU: '6',
      'Last Updated At': formatDateTime(new Date('2026-01-06T09:45:00.000Z')),
      'RAM in GB': '10',
      Username: 'ubuntu',
      'Disk in GB': '180',
    });
    expect(within(valueOf('Password')).getByText('••••••••••••')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'CPU usage' })).toHaveAttribute(
      'aria-valuenow',
      '37',
    );
    expect(screen.getByRole('progressbar', { name: 'Memory usage' })).toHaveAttribute(
      'aria-valuenow',
      '52',
    );
  });

  it('says why a VM is in Error', async () => {
    signIn();
    serveVm(
      aVmDetails({ status: 'Error', statusMessage: 'The provider could not boot the image' }),
    );
    await renderApp('/virtualMachineDetails/12');
    expect(await screen.findByText('The provider could not boot the image')).toBeInTheDocument();
    expect(screen.getByText('Error', { selector: '[data-status] *' })).toBeInTheDocument();
  });

  it('reloads the details from Refresh', async () => {
    signIn();
    const vm = serveVm();
    const { user } = await renderApp('/virtualMachineDetails/12');
    await screen.findByRole('heading', { level: 2, name: 'web-01' });
    const before = vm.requests();
    vm.set({ status: 'Stopped', usage: { cpuUsage: 0, ramUsage: 0 } });
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByText('Stopped', { selector: '[data-status] *' })).toBeInTheDocument();
    expect(vm.requests()).toBe(before + 1);
    expect(screen.getByRole('progressbar', { name: 'CPU usage' })).toHaveAttribute(
      'aria-valuenow',
      '0',
    );
  });

  it('shows a failed load under the spec’s lead', async () => {
    signIn();
    serveVm();
    await renderApp('/virtualMachineDetails/99');
    expect(await screen.findByText('Error fetching virtual machine details:')).toBeInTheDocument();
    expect(screen.getByText('Virtual machine not found')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });

  it('goes back for an id that is not a number', async () => {
    signIn();
    const vm = serveVm();
    server.use(http.get(api('virtualMachines/list'), () => ok({ data: [], totalPages: 1 })));
    server.use(
      http.get(api('teams/list'), () =>
        ok({ data: [], unassignedUsers: 0, unassignedVMs: 0, totalPages: 1 }),
      ),
    );
    const { router } = await renderApp('/virtualMachineDetails/abc');
    await waitFor(() => expect(locationOf(router)).toBe('/virtualMachines'));
    expect(vm.requests()).toBe(0);
  });
});

describe('VM details: the password', { timeout: 15_000 }, () => {
  it('asks for it when shown, copies it, and forgets it when hidden', async () => {
    signIn();
    serveVm();
    let asked = 0;
    server.use(
      http.get(api('virtualMachines/getPassword/:id'), ({ params }) => {
        asked += 1;
        expect(params.id).toBe('12');
        return ok({ sshPassword: 'S3cret!pass' });
      }),
    );
    const { user, queryClient } = await renderApp('/virtualMachineDetails/12');
    await screen.findByRole('heading', { level: 2, name: 'web-01' });
    expect(asked).toBe(0);
    expect(screen.queryByRole('button', { name: 'Copy password' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(await screen.findByText('S3cret!pass')).toBeInTheDocument();
    expect(asked).toBe(1);

    await user.click(screen.getByRole('button', { name: 'Copy password' }));
    expect(await screen.findByText('Password copied to clipboard')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe('S3cret!pass');
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Copy password' })).toHaveAttribute('data-copied'),
    );

    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(screen.queryByText('S3cret!pass')).not.toBeInTheDocument();
    expect(queryClient.getQueryCache().find({ queryKey: vmKeys.password(12) })).toBeUndefined();

    // Shown again: asked again, nothing was kept.
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(await screen.findByText('S3cret!pass')).toBeInTheDocument();
    expect(asked).toBe(2);
  });

  it('shows Provisioning instead while the VM is being built', async () => {
    signIn();
    serveVm(aVmDetails({ status: 'Provisioning', consoleAvailable: false }));
    await renderApp('/virtualMachineDetails/12');
    await screen.findByRole('heading', { level: 2, name: 'web-01' });
    expect(valueOf('Password')).toHaveTextContent('Provisioning');
    expect(screen.queryByRole('button', { name: 'Show password' })).not.toBeInTheDocument();
  });

  it('says why the password could not be read', async () => {
    signIn();
    serveVm();
    server.use(
      http.get(api('virtualMachines/getPassword/:id'), () =>
        fail(403, 'You do not have permission to do that'),
      ),
    );
    const { user } = await renderApp('/virtualMachineDetails/12');
    await user.click(await screen.findByRole('button', { name: 'Show password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'You do not have permission to do that',
    );
  });
});

describe('VM details: the private key', { timeout: 15_000 }, () => {
  it('downloads it as privateKey.pem', async () => {
    signIn();
    serveVm();
    server.use(
      http.get(api('virtualMachines/getAccessKey/:id'), () =>
        ok({ privateKey: '-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n' }),
      ),
    );
    const blobs: Blob[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:key';
    });
    URL.revokeObjectURL = vi.fn();
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(this);
    });

    const { user } = await renderApp('/virtualMachineDetails/12');
    await user.click(await screen.findByRole('button', { name: 'Download Private Key' }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(clicked[0]!.download).toBe('privateKey.pem');
    expect(clicked[0]!.getAttribute('href')).toBe('blob:key');
    expect(await blobs[0]!.text()).toBe('-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n');
    await waitFor(() => expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:key'));
  });

  it('toasts why a key could not be downloaded', async () => {
    signIn();
    serveVm();
    server.use(
      http.get(api('virtualMachines/getAccessKey/:id'), () =>
        fail(404, 'Virtual machine not found'),
      ),
    );
    const { user } = await renderApp('/virtualMachineDetails/12');
    await user.click(await screen.findByRole('button', { name: 'Download Private Key' }));
    expect(await screen.findByText('Virtual machine not found')).toBeInTheDocument();
  });
});
