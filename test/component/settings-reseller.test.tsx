import { notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { brandColorMessages } from '../../src/api/contract/brand-color';
import { resellerSettingsMessages } from '../../src/api/contract/reseller-settings';
import { messages } from '../../src/api/contract/validation';
import { aUser } from './support/fixtures';
import { api, fail, http, ok, server } from './support/msw';
import { renderApp } from './support/render';
import { serveResellerSettings } from './support/reseller-settings-fixtures';
import { signedInAs } from './support/users-fixtures';
import { typeText } from './support/typing';

// Not returned: an awaited act() keeps its scope open into the next test's first steps.
afterEach(() => {
  act(() => notifications.clean());
});

const form = () => screen.getByRole('form', { name: 'Reseller settings' });
const field = (name: string | RegExp) => within(form()).getByRole('textbox', { name });
const domainRow = (index: number) => within(form()).getByRole('group', { name: `Domain ${index}` });

/** A reseller's staff member (an Admin unless told), whose session is counted each time it is read. */
function signInStaff(overrides: Parameters<typeof aUser>[0] = {}) {
  const checks: number[] = [];
  server.use(
    http.get(api('auth/check'), () => {
      checks.push(checks.length + 1);
      return ok({
        user: aUser({ isReseller: true, companyName: 'Skyline Hosting', ...overrides }),
      });
    }),
  );
  return checks;
}

/** Replaces a field's text as a paste would: one change, not one a key. */
async function fill(user: UserEvent, input: HTMLElement, text: string) {
  await user.clear(input);
  await user.click(input);
  await user.paste(text);
}

async function openResellerTab() {
  const view = await renderApp('/settings?tab=reseller');
  await screen.findByRole('form', { name: 'Reseller settings' });
  return view;
}

describe('Settings: Reseller (a reseller’s staff)', { timeout: 15_000 }, () => {
  it('shows the brand with previews and the live contrast, and the domains with their origin', async () => {
    signInStaff();
    serveResellerSettings();
    await openResellerTab();
    expect(screen.getByRole('tab', { name: 'Reseller' })).toHaveAttribute('aria-selected', 'true');

    expect(field('Brand name')).toHaveValue('Skyline Cloud');
    expect(field('Logo URL')).toHaveValue('https://skyline.example/logo.svg');
    expect(within(form()).getByRole('img', { name: 'Logo URL preview' })).toHaveAttribute(
      'src',
      'https://skyline.example/logo.svg',
    );
    // No tab logo: nothing to preview.
    expect(within(form()).queryByRole('img', { name: 'Tab logo URL preview' })).toBeNull();
    expect(field('Primary color')).toHaveValue('#1f4fbf');
    expect(within(form()).getByText('Contrast 5.9:1 with white')).toBeInTheDocument();
    expect(within(form()).getByText('Create VM')).toBeInTheDocument();
    expect(field('Support email')).toHaveValue('help@skyline.example');
    expect(field('New customer order form')).toHaveValue('https://skyline.example/order');
    expect(field('Account changes order form')).toHaveValue('');

    expect(domainRow(1)).toHaveTextContent('console.skyline.example');
    expect(domainRow(1)).toHaveTextContent('Set by your provider');
    expect(domainRow(2)).toHaveTextContent('cloud.skyline.example');
    expect(domainRow(2)).toHaveTextContent('Verified');
  });

  it('names the reseller’s brand, not the product, under the page’s title', async () => {
    signInStaff({ resellerName: 'Skyline Cloud' });
    serveResellerSettings();
    await openResellerTab();
    expect(screen.getByText('Connect other systems to Skyline Cloud')).toBeInTheDocument();
    expect(screen.queryByText(/Connect other systems to Launchpad/)).toBeNull();
  });

  it('saves every field, toasts, and reads the session again so the console takes the colour', async () => {
    const checks = signInStaff();
    const settings = serveResellerSettings();
    const { user } = await openResellerTab();
    const checksBefore = checks.length;

    await fill(user, field('Brand name'), '  Skyline  ');
    await fill(user, field('Primary color'), '#0b7285');
    expect(within(form()).getByText('Contrast 4.7:1 with white')).toBeInTheDocument();
    await fill(user, field('Account changes order form'), 'https://skyline.example/changes');
    await user.click(within(form()).getByRole('button', { name: 'Save settings' }));

    expect(await screen.findByText(resellerSettingsMessages.saved)).toBeInTheDocument();
    expect(settings.bodies).toEqual([
      {
        brandName: 'Skyline',
        logoUrl: 'https://skyline.example/logo.svg',
        tabLogoUrl: null,
        primaryColor: '#0b7285',
        supportEmail: 'help@skyline.example',
        orderUrls: {
          newCustomer: 'https://skyline.example/order',
          accountChanges: 'https://skyline.example/changes',
        },
        domains: ['console.skyline.example', 'cloud.skyline.example'],
      },
    ]);
    await waitFor(() => expect(checks.length).toBeGreaterThan(checksBefore));
    // As saved, trimmed.
    expect(field('Brand name')).toHaveValue('Skyline');
  });

  it('checks the fields before sending, the colour’s contrast as it is typed', async () => {
    signInStaff();
    const settings = serveResellerSettings();
    const { user } = await openResellerTab();

    await fill(user, field('Primary color'), '#7fb3ff');
    // At once, before any save.
    expect(within(form()).getByText(brandColorMessages.contrast(1.9))).toBeInTheDocument();
    expect(within(form()).getByText('Contrast 1.9:1 with white')).toBeInTheDocument();

    await user.clear(field('Support email'));
    await fill(user, field('Logo URL'), 'ftp://skyline.example/logo.svg');
    await user.click(within(form()).getByRole('button', { name: 'Add domain' }));
    await fill(user, within(domainRow(3)).getByRole('textbox'), 'Console.Skyline.Example');
    await user.click(within(form()).getByRole('button', { name: 'Save settings' }));

    expect(await within(form()).findByText(messages.emailRequired)).toBeInTheDocument();
    expect(within(form()).getByText(resellerSettingsMessages.urlFormat)).toBeInTheDocument();
    expect(
      within(domainRow(3)).getByText(resellerSettingsMessages.domainDuplicate),
    ).toBeInTheDocument();
    expect(within(form()).getByText(brandColorMessages.contrast(1.9))).toBeInTheDocument();
    expect(settings.calls).not.toContain('put');
  });

  it('shows a new domain’s TXT record, and the server’s refusal of it at its row', async () => {
    signInStaff();
    const settings = serveResellerSettings();
    const { user } = await openResellerTab();
    await user.click(within(form()).getByRole('button', { name: 'Add domain' }));
    const row = domainRow(3);
    await fill(
      user,
      within(row).getByRole('textbox', { name: 'Domain 3' }),
      'portal.skyline.example',
    );
    expect(within(row).getByText('_launchpad.portal.skyline.example')).toBeInTheDocument();
    expect(within(row).getByText('launchpad-verify=4f9c2a')).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Copy TXT record name' })).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Copy TXT record value' })).toBeInTheDocument();

    const unverified = resellerSettingsMessages.domainUnverified(
      '_launchpad.portal.skyline.example',
      'launchpad-verify=4f9c2a',
    );
    server.use(
      http.put(api('reseller/settings'), () =>
        fail(400, 'Validation failed', [{ field: 'domains.2', message: unverified }]),
      ),
    );
    await user.click(within(form()).getByRole('button', { name: 'Save settings' }));
    expect(await within(domainRow(3)).findByText(unverified)).toBeInTheDocument();
    expect(within(domainRow(1)).queryByText(unverified)).toBeNull();
    expect(
      within(form()).getByText('Correct the fields marked above, then save again.'),
    ).toBeInTheDocument();
    // Nothing typed is lost.
    expect(within(domainRow(3)).getByRole('textbox')).toHaveValue('portal.skyline.example');
    expect(settings.bodies).toEqual([]);

    // Edited, the row's message goes.
    await typeText(user, within(domainRow(3)).getByRole('textbox'), 'x');
    expect(within(domainRow(3)).queryByText(unverified)).toBeNull();
  });

  it('says so when the server refuses the save for not being an Admin, keeping the values', async () => {
    signInStaff();
    serveResellerSettings();
    server.use(
      http.put(api('reseller/settings'), () => fail(403, resellerSettingsMessages.adminsOnly)),
    );
    const { user } = await openResellerTab();
    await fill(user, field('Brand name'), 'Skyline Two');
    await user.click(within(form()).getByRole('button', { name: 'Save settings' }));
    const alert = await within(form()).findByRole('alert');
    expect(alert).toHaveTextContent('Error saving settings');
    expect(alert).toHaveTextContent(resellerSettingsMessages.adminsOnly);
    expect(field('Brand name')).toHaveValue('Skyline Two');
  });

  it('shows staff who are not Admins the settings read only, with why', async () => {
    signInStaff({ isAdmin: false });
    const settings = serveResellerSettings();
    await openResellerTab();
    expect(screen.getByText(resellerSettingsMessages.adminsOnly)).toBeInTheDocument();
    expect(field('Brand name')).toHaveAttribute('readonly');
    expect(field('Support email')).toHaveAttribute('readonly');
    expect(within(form()).queryByRole('button', { name: 'Save settings' })).toBeNull();
    expect(within(form()).queryByRole('button', { name: 'Add domain' })).toBeNull();
    expect(within(form()).queryByRole('button', { name: /Remove/ })).toBeNull();
    expect(settings.calls).toEqual(['get']);
  });

  it('is not there for anyone but a reseller’s staff: the link opens Webhooks', async () => {
    // Not a reseller's: no request for the reseller's settings (msw would fail the test).
    signedInAs({ isReseller: false });
    server.use(http.get(api('webhooks/list'), () => ok([])));
    await renderApp('/settings?tab=reseller');
    await screen.findByRole('heading', { level: 2, name: 'Settings' });
    expect(await screen.findByRole('tab', { name: 'Webhooks' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    expect(screen.queryByRole('tab', { name: 'Reseller' })).toBeNull();
    expect(screen.queryByRole('form', { name: 'Reseller settings' })).toBeNull();
  });
});
