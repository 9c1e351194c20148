import { notifications } from '@mantine/notifications';
import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fillStandard, openCreate, submit, textbox } from './support/network-form-helpers';
import { recordAction } from './support/vms-fixtures';
import { typeText } from './support/typing';

afterEach(() => {
  act(() => notifications.clean());
});

describe('Create Network: validation', { timeout: 20_000 }, () => {
  it('names every missing field at once and sends nothing', async () => {
    const { user } = await openCreate();
    const create = recordAction('post', 'networks/create');
    await user.click(submit());
    expect(await screen.findByText('Network name is required')).toBeInTheDocument();
    for (const message of [
      'Region is required',
      'CIDR block is required',
      'DHCP Start Address is required for Standard Networks',
      'DHCP End Address is required for Standard Networks',
      'Default Route is required for Standard Networks',
      'Please fill in all required fields',
    ])
      expect(screen.getByText(message)).toBeInTheDocument();
    expect(textbox('Network Name')).toHaveFocus();
    // The DNS servers start from the default.
    expect(textbox('DNS Servers')).toHaveValue('1.1.1.1, 8.8.8.8');
    await user.clear(textbox('DNS Servers'));
    expect(
      await screen.findByText('DNS Servers are required for Standard Networks'),
    ).toBeInTheDocument();
    expect(create.calls).toEqual([]);
  });

  it('lists the invalid characters of a name, and refuses one longer than 64', async () => {
    const { user } = await openCreate();
    await typeText(user, textbox('Network Name'), 'web$net!$ok');
    await user.click(submit());
    expect(
      await screen.findByText('Network name contains invalid characters: $ !'),
    ).toBeInTheDocument();
    await user.clear(textbox('Network Name'));
    await typeText(user, textbox('Network Name'), 'my_net-01 A');
    expect(screen.queryByText(/invalid characters/)).not.toBeInTheDocument();
    await user.click(textbox('Network Name'));
    await user.paste('x'.repeat(60));
    expect(
      await screen.findByText('Network name must not exceed 64 characters'),
    ).toBeInTheDocument();
  });

  it('counts down the description’s 500 characters and refuses more', async () => {
    const { user } = await openCreate();
    expect(screen.getByText('500 characters remaining')).toBeInTheDocument();
    await typeText(user, textbox('Description'), 'Hello');
    expect(screen.getByText('495 characters remaining')).toBeInTheDocument();
    await user.paste('y'.repeat(496));
    expect(screen.getByText('1 characters over the limit')).toBeInTheDocument();
    await user.click(submit());
    expect(
      await screen.findByText('Description must not exceed 500 characters'),
    ).toBeInTheDocument();
  });

  it('keeps only digits, dots, slash and spaces in the CIDR, clamping octets to 255', async () => {
    const { user } = await openCreate();
    await user.type(textbox('CIDR Block'), 'a10.0.0.300/24x');
    expect(textbox('CIDR Block')).toHaveValue('10.0.0.255/24');
    await user.clear(textbox('CIDR Block'));
    await user.type(textbox('CIDR Block'), '999.1.2.0 /2z2');
    expect(textbox('CIDR Block')).toHaveValue('255.1.2.0 /22');
  });

  it('refuses a prefix outside /22 to /27 and a malformed block', async () => {
    const { user } = await openCreate();
    await typeText(user, textbox('CIDR Block'), '10.0.0.0/20');
    await user.click(submit());
    expect(await screen.findByText('The prefix must be between /22 and /27')).toBeInTheDocument();
    await user.clear(textbox('CIDR Block'));
    await typeText(user, textbox('CIDR Block'), '10.0.0/24');
    expect(await screen.findByText('Enter a CIDR block such as 10.0.0.0/24')).toBeInTheDocument();
  });

  it('checks the addresses: IP form, inside the block, DHCP order, DNS list', async () => {
    const { user } = await openCreate();
    await fillStandard(user);
    await user.clear(textbox('DHCP Start'));
    await typeText(user, textbox('DHCP Start'), '10.20.0.300');
    await user.clear(textbox('Default Route'));
    await typeText(user, textbox('Default Route'), '10.30.0.1');
    await user.clear(textbox('DNS Servers'));
    await typeText(user, textbox('DNS Servers'), '1.1.1.1, 8.8.8.8, 9.9.9.9');
    await user.click(submit());
    expect(
      await screen.findByText('An IP address is four numbers from 0 to 255 separated by dots'),
    ).toBeInTheDocument();
    expect(
      screen.getByText('The address must be a host address inside the CIDR block'),
    ).toBeInTheDocument();
    expect(
      screen.getByText('Enter one or two IP addresses separated by a comma'),
    ).toBeInTheDocument();

    await user.clear(textbox('DHCP Start'));
    await typeText(user, textbox('DHCP Start'), '10.20.0.200');
    await user.clear(textbox('DHCP End'));
    await typeText(user, textbox('DHCP End'), '10.20.0.100');
    expect(
      await screen.findByText('DHCP Start Address must not come after DHCP End Address'),
    ).toBeInTheDocument();
  });
});
