import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { resellerMessages } from '../../src/api/contract/reseller';
import { formatDateTime } from '../../src/components/date-format';
import {
  acmeDetails,
  aCustomer,
  serveCustomers,
  serveLiveCustomer,
  signInReseller,
  SUSPENDED_AT,
} from './support/customers-fixtures';
import { api, fail, http, server } from './support/msw';
import { renderApp } from './support/render';
import { typeText } from './support/typing';

const suspendedSince = `Suspended since ${formatDateTime(new Date(SUSPENDED_AT))}`;

const heading = () => screen.getByRole('heading', { level: 2, name: 'Acme Corporation' });
/** The header's badge: beside the heading, not inside it. */
const headerBadge = () => heading().closest('.mantine-Group-root')!.querySelector('[data-state]');
const dangerZone = () => screen.queryByRole('region', { name: 'Danger zone' });
const dialog = (name: string) => screen.getByRole('dialog', { name });

async function openPage(customer = acmeDetails()) {
  signInReseller();
  const served = serveLiveCustomer(customer);
  const view = await renderApp('/customers/42');
  await screen.findByRole('heading', { level: 2, name: 'Acme Corporation' });
  return { ...view, served };
}

async function openSuspendDialog(user: UserEvent) {
  await user.click(within(dangerZone()!).getByRole('button', { name: 'Suspend' }));
  return dialog('Suspend Acme Corporation?');
}

describe('a suspended customer', { timeout: 15_000 }, () => {
  it('shows "Suspended" beside its name in the list, and since when on hover', async () => {
    signInReseller();
    serveCustomers([
      aCustomer(1, { name: 'Acme Corporation', state: 'suspended', suspendedAt: SUSPENDED_AT }),
      aCustomer(2, { name: 'Globex' }),
    ]);
    const { user } = await renderApp('/customers');
    const table = await screen.findByRole('table', { name: 'Your Customers' });
    const [acme, globex] = within(table).getAllByRole('row').slice(1);
    const acmeName = within(acme!).getAllByRole('cell')[0]!;
    expect(acmeName).toHaveTextContent('Acme Corporation');
    expect(within(acmeName).getByText('Suspended')).toBeInTheDocument();
    expect(within(globex!).queryByText('Suspended')).not.toBeInTheDocument();

    await user.hover(within(acmeName).getByText('Suspended'));
    // After the tooltip's delay (later on a busy machine); hidden counts: with no layout,
    // floating-ui may place it out of view.
    expect(
      await screen.findByRole('tooltip', { hidden: true }, { timeout: 3000 }),
    ).toHaveTextContent(suspendedSince);
  });

  it('shows it in the page’s header, says what it means, and offers Resume, not Suspend', async () => {
    const { user } = await openPage(acmeDetails({ state: 'suspended', suspendedAt: SUSPENDED_AT }));
    expect(headerBadge()).toHaveTextContent('Suspended');
    // Beside the heading, not part of its name.
    expect(heading()).toHaveAccessibleName('Acme Corporation');
    expect(screen.getByText(suspendedSince)).toBeInTheDocument();
    expect(
      screen.getByText(
        'Its users cannot sign in, its API tokens are refused and its virtual machines are stopped.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Resume' })).toBeInTheDocument();
    expect(dangerZone()).not.toBeInTheDocument();

    await user.hover(headerBadge()!);
    // After the tooltip's delay (later on a busy machine); hidden counts: with no layout,
    // floating-ui may place it out of view.
    expect(
      await screen.findByRole('tooltip', { hidden: true }, { timeout: 3000 }),
    ).toHaveTextContent(suspendedSince);
  });
});

describe('suspending a customer', { timeout: 15_000 }, () => {
  it('sits in the Danger zone, apart from the figures, with no badge while active', async () => {
    await openPage();
    expect(headerBadge()).toBeNull();
    const zone = dangerZone()!;
    expect(within(zone).getByText('Suspend this customer')).toBeInTheDocument();
    expect(
      within(zone).getByText(
        'Its VMs stop and its users and API tokens are shut out until you resume it. Nothing is deleted.',
      ),
    ).toBeInTheDocument();
    // After the figures and the Admins: the page's foot.
    const figures = screen.getByRole('region', { name: 'Figures' });
    expect(figures.compareDocumentPosition(zone) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Resume' })).not.toBeInTheDocument();
  });

  it('says what happens and waits for the company’s exact name', async () => {
    const { user, served } = await openPage();
    const confirm = await openSuspendDialog(user);
    expect(confirm).toHaveTextContent(
      'Its running virtual machines will be stopped. Its users will be signed out and will not be able to sign in, and its API tokens will stop working, until you resume it. Nothing is deleted: its virtual machines, networks, users and settings stay as they are.',
    );
    const suspend = within(confirm).getByRole('button', { name: 'Suspend' });
    const typed = within(confirm).getByRole('textbox', {
      name: 'Type Acme Corporation to confirm',
    });
    expect(suspend).toBeDisabled();
    await typeText(user, typed, 'acme corporation');
    expect(suspend).toBeDisabled();
    await user.clear(typed);
    await typeText(user, typed, 'Acme Corporatio');
    expect(suspend).toBeDisabled();
    await typeText(user, typed, 'n');
    expect(suspend).toBeEnabled();

    // Cancel suspends nothing, and the next time starts from an empty field.
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const again = await openSuspendDialog(user);
    expect(within(again).getByRole('textbox')).toHaveValue('');
    expect(within(again).getByRole('button', { name: 'Suspend' })).toBeDisabled();
    expect(served.calls.filter((call) => call !== 'details')).toEqual([]);
  });

  it('suspends, toasts the server’s message and shows the page as it is now', async () => {
    const { user, served } = await openPage();
    const confirm = await openSuspendDialog(user);
    await typeText(user, within(confirm).getByRole('textbox'), 'Acme Corporation');
    await user.click(within(confirm).getByRole('button', { name: 'Suspend' }));

    expect(await screen.findByText(resellerMessages.customerSuspended)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(served.calls).toEqual(['details', 'suspend 42', 'details']);
    expect(headerBadge()).toHaveTextContent('Suspended');
    expect(screen.getByText(suspendedSince)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Resume' })).toBeInTheDocument();
    expect(dangerZone()).not.toBeInTheDocument();
  });

  it('shows a 409 as an error toast with the server’s message and reads the page again', async () => {
    const { user, served } = await openPage();
    // Someone else suspended it meanwhile.
    server.use(
      http.post(api('reseller/companies/suspend/:id'), () => {
        Object.assign(served.customer, { state: 'suspended', suspendedAt: SUSPENDED_AT });
        return fail(409, resellerMessages.alreadySuspended);
      }),
    );
    const confirm = await openSuspendDialog(user);
    await typeText(user, within(confirm).getByRole('textbox'), 'Acme Corporation');
    await user.click(within(confirm).getByRole('button', { name: 'Suspend' }));

    expect(
      await screen.findByText(`Error suspending customer: ${resellerMessages.alreadySuspended}`),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(headerBadge()).toHaveTextContent('Suspended'));
    expect(screen.queryByText(resellerMessages.customerSuspended)).not.toBeInTheDocument();
  });

  it('keeps another failure in the dialog, to try again', async () => {
    const { user } = await openPage();
    server.use(
      http.post(api('reseller/companies/suspend/:id'), () => fail(500, 'Database unavailable')),
    );
    const confirm = await openSuspendDialog(user);
    await typeText(user, within(confirm).getByRole('textbox'), 'Acme Corporation');
    await user.click(within(confirm).getByRole('button', { name: 'Suspend' }));
    expect(await within(confirm).findByRole('alert')).toHaveTextContent(
      'Error suspending customer: Database unavailable',
    );
    expect(within(confirm).getByRole('button', { name: 'Suspend' })).toBeEnabled();
    expect(headerBadge()).toBeNull();
  });
});

describe('resuming a customer', { timeout: 15_000 }, () => {
  const suspended = () => acmeDetails({ state: 'suspended', suspendedAt: SUSPENDED_AT });

  it('asks plainly, resumes, toasts and shows the customer active again', async () => {
    const { user, served } = await openPage(suspended());
    await user.click(screen.getByRole('button', { name: 'Resume' }));
    const confirm = dialog('Resume Acme Corporation?');
    expect(confirm).toHaveTextContent(
      'Its users will be able to sign in again and its API tokens will work again. The virtual machines that were running when it was suspended will start again.',
    );
    // No name to type.
    expect(within(confirm).queryByRole('textbox')).not.toBeInTheDocument();
    await user.click(within(confirm).getByRole('button', { name: 'Resume' }));

    expect(await screen.findByText(resellerMessages.customerResumed)).toBeInTheDocument();
    expect(served.calls).toEqual(['details', 'resume 42', 'details']);
    await waitFor(() => expect(headerBadge()).toBeNull());
    expect(screen.queryByText(suspendedSince)).not.toBeInTheDocument();
    expect(dangerZone()).toBeInTheDocument();
  });

  it('shows a 409 (VMs still stopping) as an error toast and stays suspended', async () => {
    const { user, served } = await openPage(suspended());
    server.use(
      http.post(api('reseller/companies/resume/:id'), () =>
        fail(409, resellerMessages.vmsChanging),
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Resume' }));
    await user.click(
      within(dialog('Resume Acme Corporation?')).getByRole('button', { name: 'Resume' }),
    );
    expect(
      await screen.findByText(`Error resuming customer: ${resellerMessages.vmsChanging}`),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // Read again: still suspended.
    await waitFor(() => expect(served.calls).toEqual(['details', 'details']));
    expect(headerBadge()).toHaveTextContent('Suspended');
    expect(screen.getByRole('button', { name: 'Resume' })).toBeInTheDocument();
  });
});
