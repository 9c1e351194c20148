import { notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { resellerMessages } from '../../src/api/contract/reseller';
import { messages } from '../../src/api/contract/validation';
import {
  aCustomer,
  serveCustomer,
  serveCustomers,
  signInReseller,
} from './support/customers-fixtures';
import { fail, ok } from './support/msw';
import { locationOf, renderApp } from './support/render';
import { recordBodies } from './support/teams-fixtures';
import { typeText } from './support/typing';

// Not returned: an awaited act() keeps its scope open into the next test's first steps.
afterEach(() => {
  act(() => notifications.clean());
});

const textbox = (name: string) => screen.getByRole('textbox', { name });
const submit = () => screen.getByRole('button', { name: 'Create customer' });

/** The form, reached from the list (so that there is a page to go back to). */
async function openFromList(listPath = '/customers') {
  signInReseller();
  serveCustomers();
  const view = await renderApp(listPath);
  await view.user.click(await screen.findByRole('button', { name: 'New customer' }));
  await screen.findByRole('heading', { level: 2, name: 'New customer' });
  return view;
}

async function fill(
  user: Awaited<ReturnType<typeof renderApp>>['user'],
  values: {
    name?: string;
    logoUrl?: string;
    firstName?: string;
    lastName?: string;
    email?: string;
  },
) {
  const fields: [string, string | undefined][] = [
    ['Company name', values.name],
    ['Logo URL (optional)', values.logoUrl],
    ['First name', values.firstName],
    ['Last name', values.lastName],
    ['Email', values.email],
  ];
  for (const [label, value] of fields) if (value) await user.type(textbox(label), value);
}

const ACME = {
  name: '  Acme Corporation ',
  logoUrl: 'https://acme.example/logo.svg',
  firstName: 'Grace',
  lastName: 'Hopper',
  email: 'Grace.Hopper@Acme.example',
};

describe('New customer', { timeout: 15_000 }, () => {
  it('creates the company and its first Admin, toasts and opens the new customer', async () => {
    const { user, router } = await openFromList('/customers?search=ac');
    const create = recordBodies('post', 'reseller/companies/create', () =>
      ok({ companyId: 77 }, resellerMessages.customerCreated),
    );
    serveCustomer({ ...aCustomer(77, { name: 'Acme Corporation' }), adminList: [] });

    await fill(user, ACME);
    await user.click(submit());

    expect(await screen.findByText(resellerMessages.customerCreated)).toBeInTheDocument();
    await waitFor(() => expect(locationOf(router)).toBe('/customers/77'));
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Acme Corporation' }),
    ).toBeInTheDocument();
    // As the contract reads it: trimmed, the e-mail in lower case.
    expect(create.bodies).toEqual([
      {
        name: 'Acme Corporation',
        logoUrl: 'https://acme.example/logo.svg',
        admin: { email: 'grace.hopper@acme.example', firstName: 'Grace', lastName: 'Hopper' },
      },
    ]);
    // The form is not in the history any more: Back leads to the list it was opened from.
    act(() => router.history.back());
    await waitFor(() => expect(locationOf(router)).toBe('/customers?search=ac'));
  });

  it('sends no logo when none is given', async () => {
    const { user, router } = await openFromList();
    const create = recordBodies('post', 'reseller/companies/create', () =>
      ok({ companyId: 78 }, resellerMessages.customerCreated),
    );
    serveCustomer({ ...aCustomer(78), adminList: [] });
    await fill(user, { ...ACME, logoUrl: undefined });
    await user.click(submit());
    await waitFor(() => expect(locationOf(router)).toBe('/customers/78'));
    expect(create.bodies).toHaveLength(1);
    expect(create.bodies[0]).not.toHaveProperty('logoUrl');
  });

  it("shows the contract's messages under the fields and sends nothing until they are valid", async () => {
    const { user, router } = await openFromList();
    const create = recordBodies('post', 'reseller/companies/create');
    await user.click(submit());

    expect(await screen.findByText(resellerMessages.nameRequired)).toBeInTheDocument();
    expect(textbox('Company name')).toHaveAccessibleDescription(resellerMessages.nameRequired);
    expect(textbox('First name')).toHaveAccessibleDescription(messages.firstNameRequired);
    expect(textbox('Last name')).toHaveAccessibleDescription(messages.lastNameRequired);
    expect(textbox('Email')).toHaveAccessibleDescription(messages.emailRequired);
    // The logo is optional.
    expect(textbox('Logo URL (optional)')).not.toHaveAttribute('aria-invalid');
    // The first invalid field gets the cursor.
    expect(textbox('Company name')).toHaveFocus();

    await fill(user, { ...ACME, logoUrl: 'ftp://acme.example/logo.svg', email: 'not-an-email' });
    await waitFor(() =>
      expect(textbox('Logo URL (optional)')).toHaveAccessibleDescription(
        expect.stringContaining(resellerMessages.logoUrlFormat),
      ),
    );
    expect(textbox('Email')).toHaveAccessibleDescription(messages.emailFormat);
    expect(screen.queryByText(resellerMessages.nameRequired)).not.toBeInTheDocument();
    await user.click(submit());
    expect(create.bodies).toEqual([]);
    expect(locationOf(router)).toBe('/customers/new');
  });

  it("shows a 400's field errors under their fields, keeps what was typed, and clears them on an edit", async () => {
    const { user, router } = await openFromList();
    const create = recordBodies('post', 'reseller/companies/create', () =>
      fail(400, 'Invalid request', [
        { field: 'admin.email', message: resellerMessages.emailTaken },
      ]),
    );
    await fill(user, ACME);
    await user.click(submit());

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Error creating customer')).toBeInTheDocument();
    expect(alert).toHaveTextContent('Invalid request');
    expect(textbox('Email')).toHaveAccessibleDescription(resellerMessages.emailTaken);
    expect(textbox('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(create.bodies).toHaveLength(1);
    expect(locationOf(router)).toBe('/customers/new');
    // Nothing typed is lost.
    expect(textbox('Company name')).toHaveValue(ACME.name);
    expect(textbox('Logo URL (optional)')).toHaveValue(ACME.logoUrl);
    expect(textbox('First name')).toHaveValue('Grace');
    expect(textbox('Last name')).toHaveValue('Hopper');
    expect(textbox('Email')).toHaveValue(ACME.email);

    await user.clear(textbox('Email'));
    await typeText(user, textbox('Email'), 'grace@acme.example');
    await waitFor(() =>
      expect(textbox('Email')).not.toHaveAccessibleDescription(resellerMessages.emailTaken),
    );
    expect(textbox('Email')).not.toHaveAttribute('aria-invalid');
  });

  it('shows a failure it cannot place inline, keeping the form', async () => {
    const { user, router } = await openFromList();
    recordBodies('post', 'reseller/companies/create', () => fail(500, 'Internal server error'));
    await fill(user, ACME);
    await user.click(submit());
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error creating customer');
    expect(alert).toHaveTextContent('Internal server error');
    expect(textbox('Company name')).toHaveValue(ACME.name);
    expect(screen.queryByText(resellerMessages.customerCreated)).not.toBeInTheDocument();
    expect(locationOf(router)).toBe('/customers/new');
  });

  it('goes back where it came from on Cancel', async () => {
    const { user, router } = await openFromList('/customers?page=2');
    await typeText(user, textbox('Company name'), 'Half typed');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(locationOf(router)).toBe('/customers?page=2'));
  });

  it('goes to the list with the back arrow when opened by its address', async () => {
    signInReseller();
    serveCustomers();
    const { user, router } = await renderApp('/customers/new');
    await screen.findByRole('heading', { level: 2, name: 'New customer' });
    await user.click(screen.getByRole('button', { name: 'Go back' }));
    await waitFor(() => expect(locationOf(router)).toBe('/customers'));
  });
});
