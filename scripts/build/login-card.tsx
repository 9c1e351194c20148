import { QueryClient } from '@tanstack/react-query';
import {
  createMemoryHistory,
  createRootRoute,
  createRouter,
  RouterProvider,
} from '@tanstack/react-router';
import { renderToString } from 'react-dom/server';
import { Providers } from '../../src/providers';
import { LoginScreen } from '../../src/routes/-components/login-screen';

/** Storage as a first visit finds it: nothing stored. */
class EmptyStorage {
  getItem = () => null;
  setItem = () => {};
  removeItem = () => {};
}

/** The sign-in screen as the console first draws it for a visitor with no stored session. */
export async function renderLoginCard(): Promise<string> {
  const storage = { localStorage: new EmptyStorage(), sessionStorage: new EmptyStorage() };
  const saved = Object.fromEntries(
    Object.keys(storage).map((name) => [name, Object.getOwnPropertyDescriptor(globalThis, name)]),
  );
  Object.assign(globalThis, storage);
  try {
    const router = createRouter({
      routeTree: createRootRoute({ component: () => <LoginScreen /> }),
      history: createMemoryHistory({ initialEntries: ['/login'] }),
    });
    await router.load();
    return renderToString(
      <Providers queryClient={new QueryClient()}>
        <RouterProvider router={router} />
      </Providers>,
    );
  } finally {
    for (const [name, descriptor] of Object.entries(saved)) {
      if (descriptor) Object.defineProperty(globalThis, name, descriptor);
      else Reflect.deleteProperty(globalThis, name);
    }
  }
}
