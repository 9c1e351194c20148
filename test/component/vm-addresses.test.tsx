import { notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { formatDate, formatDateTime } from '../../src/components/date-format';
import { locationOf, renderApp } from './support/render';
import { rowsOf, serveTeams, signIn, tableTitled } from './support/teams-fixtures';
import { aVmDetails, aVmRow, serveVm, serveVms } from './support/vms-fixtures';

// Issue 35 point 4: the details a customer looks for, in the VM list and the VM's header.

afterEach(() => {
  act(() => notifications.clean());
});

const table = () => tableTitled('Your Virtual Machines');
const rowNamed = (name: string) =>
  rowsOf(table()).find((row) => within(row).queryByText(name) !== null)!;
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);
const time = (date: Date) =>
  new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }).format(date);

async function openList() {
  signIn();
  serveTeams();
  const made = minutesAgo(1);
  const yesterday = new Date(made);
  yesterday.setDate(made.getDate() - 1);
  serveVms({
    rows: [
      aVmRow(1, {
        name: 'web-1',
        createdAt: made,
        primaryIp: { address: '198.18.0.7', kind: 'public' },
      }),
      aVmRow(2, {
        name: 'web-2',
        createdAt: yesterday,
        primaryIp: { address: '10.0.0.9', kind: 'private' },
      }),
      aVmRow(3, { name: 'web-3', primaryIp: null }),
    ],
  });
  const view = await renderApp('/virtualMachines');
  await within(table()).findByText('web-1');
  return { ...view, made, yesterday };
}

describe('VM list: addresses and creation times', { timeout: 15_000 }, () => {
  it('shows the primary IP under the name, public or else private, and copies it', async () => {
    const { user, router } = await openList();
    const first = rowNamed('web-1');
    expect(within(first).getByText('Public IP')).toBeInTheDocument();
    expect(within(first).getByText('198.18.0.7')).toBeInTheDocument();
    const second = rowNamed('web-2');
    expect(within(second).getByText('Private IP')).toBeInTheDocument();
    expect(within(second).getByText('10.0.0.9')).toBeInTheDocument();
    // A VM with no address yet shows none, and no copy button.
    expect(within(rowNamed('web-3')).queryByRole('button', { name: /^Copy/ })).toBeNull();

    const copy = within(first).getByRole('button', { name: 'Copy Public IP' });
    await user.click(copy);
    expect(await navigator.clipboard.readText()).toBe('198.18.0.7');
    expect(await screen.findByText('Public IP copied to clipboard')).toBeInTheDocument();
    expect(await screen.findByRole('tooltip', { hidden: true })).toHaveTextContent('Copied');
    expect(copy).toHaveAttribute('data-copied');
    // The copy stays in the row: the row does not open.
    expect(locationOf(router)).toBe('/virtualMachines');
  });

  it('says Today and Yesterday with the time, and the date and time on hover', async () => {
    const { user, made, yesterday } = await openList();
    const cells = (name: string) => within(rowNamed(name)).getAllByRole('cell');
    expect(cells('web-1')[5]).toHaveTextContent(`Today, ${time(made)}`);
    expect(cells('web-2')[5]).toHaveTextContent(`Yesterday, ${time(yesterday)}`);
    const old = new Date('2026-02-03T10:00:00.000Z');
    expect(cells('web-3')[5]).toHaveTextContent(formatDate(old));

    // The tooltips open after their delay, and a busy machine draws them later still. Hidden
    // ones count: with no layout in the test DOM, floating-ui may place a tooltip out of view
    // (display: none); it is drawn only once the hover opens it.
    const opened = { timeout: 3000 };
    await user.hover(within(cells('web-3')[5]!).getByText(formatDate(old)));
    expect(await screen.findByRole('tooltip', { hidden: true }, opened)).toHaveTextContent(
      formatDateTime(old),
    );
    await user.unhover(within(cells('web-3')[5]!).getByText(formatDate(old)));
    await user.hover(within(cells('web-1')[5]!).getByText(/^Today/));
    await waitFor(
      () =>
        expect(
          screen.getAllByRole('tooltip', { hidden: true }).map((tip) => tip.textContent),
        ).toContain(formatDateTime(made)),
      opened,
    );
  });
});

describe('VM details: the header and the username', { timeout: 15_000 }, () => {
  it('shows the primary IP under the name with a copy button', async () => {
    signIn();
    serveVm(
      aVmDetails({ virtualMachine: { primaryIp: { address: '198.18.0.7', kind: 'public' } } }),
    );
    const { user } = await renderApp('/virtualMachineDetails/12');
    const heading = await screen.findByRole('heading', { level: 2, name: 'web-01' });
    const header = heading.parentElement!;
    expect(header).toHaveTextContent('Public IP198.18.0.7');
    await user.click(within(header).getByRole('button', { name: 'Copy Public IP' }));
    expect(await navigator.clipboard.readText()).toBe('198.18.0.7');
    expect(await screen.findByText('Public IP copied to clipboard')).toBeInTheDocument();
  });

  it('shows no address while the VM has none', async () => {
    signIn();
    serveVm(aVmDetails({ status: 'Provisioning' }));
    await renderApp('/virtualMachineDetails/12');
    const heading = await screen.findByRole('heading', { level: 2, name: 'web-01' });
    expect(heading.parentElement).not.toHaveTextContent(/IP/);
  });

  it('copies the username', async () => {
    signIn();
    serveVm();
    const { user } = await renderApp('/virtualMachineDetails/12');
    await screen.findByRole('heading', { level: 2, name: 'web-01' });
    await user.click(screen.getByRole('button', { name: 'Copy Username' }));
    expect(await navigator.clipboard.readText()).toBe('ubuntu');
    expect(await screen.findByText('Username copied to clipboard')).toBeInTheDocument();
    expect(await screen.findByRole('tooltip', { hidden: true })).toHaveTextContent('Copied');
  });
});
