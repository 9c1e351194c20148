import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { api, fail, http, server } from './support/msw';
import { locationOf, renderApp } from './support/render';
import { aTeam, serveTeam, serveTeams, signIn } from './support/teams-fixtures';
import { optionsOf } from './support/users-fixtures';
import { serveVms } from './support/vms-fixtures';
import { typeText } from './support/typing';

// Issue 35: team pickers loaded one page of 100 teams, so the 101st could not be chosen.

/** The option of the open dropdown with this label, once the answer holding it has arrived. */
async function optionNamed(input: HTMLElement, name: string) {
  let found: HTMLElement | undefined;
  await waitFor(async () => {
    found = (await optionsOf(input)).find((option) => option.textContent === name);
    expect(found).toBeDefined();
  });
  return found!;
}
const labelsOf = async (input: HTMLElement) =>
  (await optionsOf(input)).map((option) => option.textContent);

const MANY = Array.from({ length: 150 }, (_, i) =>
  aTeam(i + 1, { name: `team-${String(i + 1).padStart(3, '0')}` }),
);

describe('the team picker', { timeout: 20_000 }, () => {
  it('finds a team beyond the first 100 by searching the server, in the VM list filter', async () => {
    signIn();
    const teams = serveTeams({ teams: MANY });
    serveVms();
    const { user, router } = await renderApp('/virtualMachines');
    const picker = await screen.findByRole('combobox', { name: 'Team' });
    await user.click(picker);
    // The first page holds 100 teams: the 142nd is not among them.
    await optionNamed(picker, 'team-001');
    expect(await labelsOf(picker)).not.toContain('team-142');

    await user.clear(picker);
    await typeText(user, picker, 'team-142');
    await waitFor(() => expect(teams.last()).toMatchObject({ search: 'team-142' }));
    await user.click(await optionNamed(picker, 'team-142'));
    await waitFor(() => expect(locationOf(router)).toBe('/virtualMachines?teamId=142'));
    expect(picker).toHaveValue('team-142');
  });

  it('names a team chosen by the address that the first page does not hold', async () => {
    signIn();
    serveTeams({ teams: MANY });
    const team = serveTeam({ id: 142, name: 'team-142' });
    const vms = serveVms();
    await renderApp('/virtualMachines?teamId=142');
    const picker = await screen.findByRole('combobox', { name: 'Team' });
    await waitFor(() => expect(picker).toHaveValue('team-142'));
    expect(team.queries).toHaveLength(1);
    expect(vms.last()).toMatchObject({ teamId: '142' });
  });

  it('sends one search once the typing stops, not one a key', async () => {
    signIn();
    const teams = serveTeams({ teams: MANY });
    serveVms();
    const { user } = await renderApp('/virtualMachines');
    const picker = await screen.findByRole('combobox', { name: 'Team' });
    await user.click(picker);
    await optionNamed(picker, 'team-001');
    const before = teams.queries.length;
    await user.clear(picker);
    await user.type(picker, 'team-14');
    await optionNamed(picker, 'team-149');
    const searches = teams.queries.slice(before).map((query) => query.search);
    expect(searches).toEqual(['team-14']);
  });

  it('picks a new user’s team beyond the first 100 (Add User)', async () => {
    signIn();
    const teams = serveTeams({ teams: MANY });
    server.use(http.get(api('roles/list'), () => fail(500, 'no roles')));
    const { user } = await renderApp('/createUser');
    const picker = await screen.findByRole('combobox', { name: 'Teams' });
    await user.click(picker);
    await typeText(user, picker, '137');
    await waitFor(() => expect(teams.last()).toMatchObject({ search: '137' }));
    await user.click(await optionNamed(picker, 'team-137'));
    const field = picker.closest('.mantine-MultiSelect-root') as HTMLElement;
    expect(within(field).getByText('team-137')).toBeInTheDocument();
  });

  it('shows a failed search under the spec’s lead', async () => {
    signIn();
    serveVms();
    server.use(http.get(api('teams/list'), () => fail(500, 'Database unavailable')));
    await renderApp('/virtualMachines');
    expect(await screen.findByText(/^Error fetching teams/)).toBeInTheDocument();
  });
});
