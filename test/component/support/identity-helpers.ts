import { within, type screen } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import type { User } from '../../../src/api/contract/auth';
import { sessionStore, type StoredSession } from '../../../src/api/session-store';
import { aUser } from './fixtures';
import { api, fail, http, server } from './msw';

/** A password that meets every rule of the contract. */
export const STRONG_PASSWORD = 'Str0ng!Password#1';

/** The user as the console keeps it (dates revived). */
export const storedUser = (overrides: Partial<User> = {}): User => ({
  ...(aUser(overrides) as unknown as User),
  createdAt: new Date('2026-01-02T03:04:05.000Z'),
});

/** Puts a stored session in the browser, as a login would have left it. */
export function storeSession(
  patch: Partial<Omit<StoredSession, 'user'>> & { user?: Partial<User> } = {},
) {
  const { user, ...rest } = patch;
  sessionStore.save({
    user: storedUser(user),
    rememberMe: false,
    lastAuthed: '2026-05-01T10:00:00.000Z',
    needsReset: false,
    resetKey: null,
    ...rest,
  });
}

/** The server answers the auth check with 401: no verified session. */
export const noVerifiedSession = () =>
  server.use(http.get(api('auth/check'), () => fail(401, 'Not authenticated')));

/** The inline error of a form: its lead (title) and the server's message (body). */
export function formAlert(view: typeof screen) {
  const alert = view.getByRole('alert');
  return {
    alert,
    lead: (text: string) => within(alert).getByText(text, { exact: true }),
  };
}

/** Replaces an input's text the way a paste does: one input event, not one per character. */
export async function pasteInto(user: UserEvent, input: HTMLElement, value: string) {
  await user.clear(input);
  await user.click(input);
  await user.paste(value);
}
