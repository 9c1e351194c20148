import { screen, waitFor } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { expect } from 'vitest';
import { serveCidrDetails, serveRegions } from './networks-fixtures';
import { renderApp } from './render';
import { signIn } from './teams-fixtures';
import { pick } from './users-fixtures';
import { typeText } from './typing';

/** The network form's fields, by label. */
export const textbox = (name: string) => screen.getByRole('textbox', { name });
export const regionInput = () => screen.getByRole('combobox', { name: 'Region' });
export const submit = () => screen.getByRole('button', { name: 'Create Network' });

export async function openCreate() {
  signIn();
  serveRegions();
  const cidr = serveCidrDetails();
  const view = await renderApp('/createNetwork');
  await screen.findByRole('heading', { level: 2, name: 'Create Network' });
  await waitFor(() => expect(regionInput()).toBeEnabled());
  return { ...view, cidr };
}

/** Fills a valid standard network: backend in Frankfurt on 10.20.0.0/24. */
export async function fillStandard(user: UserEvent) {
  await typeText(user, textbox('Network Name'), 'backend');
  await pick(user, regionInput(), 'Germany - Frankfurt');
  await typeText(user, textbox('Description'), 'Databases');
  await typeText(user, textbox('CIDR Block'), '10.20.0.0/24');
  await typeText(user, textbox('DHCP Start'), '10.20.0.2');
  await typeText(user, textbox('DHCP End'), '10.20.0.254');
  await typeText(user, textbox('Default Route'), '10.20.0.1');
}
