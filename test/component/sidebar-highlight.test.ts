import { describe, expect, it } from 'vitest';
import { activeNavItem, type NavItemKey } from '../../src/components/nav-highlight';

const ME = 7;

describe('activeNavItem (sidebar highlighting rules)', () => {
  it.each<[string, Record<string, unknown>, NavItemKey | undefined]>([
    ['/', {}, 'dashboard'],
    ['/virtualMachines', {}, 'virtualMachines'],
    ['/virtualMachines', { page: 2 }, 'virtualMachines'],
    ['/virtualMachineDetails/12', {}, 'virtualMachines'],
    ['/virtualMachineDetails/12/edit', {}, 'virtualMachines'],
    ['/virtualMachineConsole/12', {}, 'virtualMachines'],
    ['/createVirtualMachine', {}, 'virtualMachines'],
    ['/networks', {}, 'networks'],
    ['/networks/3', {}, 'networks'],
    ['/networks/3/edit', {}, 'networks'],
    ['/createNetwork', {}, 'networks'],
    ['/teams', {}, 'teams'],
    ['/team', { id: 4 }, 'teams'],
    ['/createEditTeam', { id: 4 }, 'teams'],
    ['/users', {}, 'users'],
    ['/users', { page: 2, search: 'ada', sort: 'email.desc' }, 'users'],
    ['/createUser', {}, 'users'],
    ['/user', { id: 8 }, 'users'],
    ['/user', {}, 'users'],
    ['/user', { id: ME }, 'profile'],
    ['/user', { id: String(ME) }, 'profile'],
    ['/customers', {}, 'customers'],
    ['/customers', { page: 2, sort: 'vms.desc' }, 'customers'],
    ['/customers/new', {}, 'customers'],
    ['/customers/42', {}, 'customers'],
    ['/settings', {}, 'settings'],
    ['/settings', { tab: 'apiTokens' }, 'settings'],
    ['/settings/', {}, 'settings'],
    ['/support', {}, 'support'],
    ['/logout', {}, 'logout'],
    ['/users/', {}, 'users'],
    ['/orderServices', {}, undefined],
    ['/networksX', {}, undefined],
    ['/customersX', {}, undefined],
    ['/usersettings', {}, undefined],
    ['/settingsX', {}, undefined],
  ])('%s %o → %s', (pathname, search, expected) => {
    expect(activeNavItem(pathname, search, ME)).toBe(expected);
  });

  it('highlights Dashboard only on the exact root', () => {
    for (const path of ['/users', '/networks', '/support'])
      expect(activeNavItem(path, {}, ME)).not.toBe('dashboard');
  });
});
