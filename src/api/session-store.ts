import type { User } from './contract/auth';

/** What the browser keeps between pages (spec section 3, Stored session). */
export interface StoredSession {
  user: User;
  rememberMe: boolean;
  lastAuthed: string;
  needsReset: boolean;
  resetKey: string | null;
}

// Also read, by name, by index.html's first-screen preload (scripts/build/first-screen-preload.ts).
const SESSION_KEY = 'session';
const TOKEN_KEY = 'token';
const REMEMBER_KEY = 'rememberMe';

/**
 * With Remember me the session and token live in localStorage and survive the browser closing;
 * without it they live in sessionStorage and go with the tab.
 */
const storage = (): Storage =>
  localStorage.getItem(REMEMBER_KEY) === 'true' ? localStorage : sessionStorage;

const readJson = <T>(raw: string | null): T | null => {
  if (!raw) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
};

export const sessionStore = {
  setRememberMe(rememberMe: boolean) {
    if (rememberMe) localStorage.setItem(REMEMBER_KEY, 'true');
    else localStorage.removeItem(REMEMBER_KEY);
  },
  getToken(): string | null {
    return storage().getItem(TOKEN_KEY);
  },
  setToken(token: string) {
    storage().setItem(TOKEN_KEY, token);
  },
  get(): StoredSession | null {
    const session = readJson<StoredSession>(storage().getItem(SESSION_KEY));
    if (session?.user)
      session.user = { ...session.user, createdAt: new Date(session.user.createdAt) };
    return session;
  },
  save(session: StoredSession) {
    storage().setItem(SESSION_KEY, JSON.stringify(session));
  },
  /** Forgets the session and token (a failed auth check, a new login). */
  clear() {
    for (const store of [localStorage, sessionStorage]) {
      store.removeItem(SESSION_KEY);
      store.removeItem(TOKEN_KEY);
    }
    localStorage.removeItem(REMEMBER_KEY);
  },
  /** Logout clears all browser storage. */
  clearAll() {
    localStorage.clear();
    sessionStorage.clear();
  },
};
