/**
 * The sidebar's links, in order (spec section 2, Sidebar; Settings added by issue 34; Customers,
 * for a reseller's staff only, by the reseller's console).
 */
export type NavItemKey =
  | 'dashboard'
  | 'virtualMachines'
  | 'networks'
  | 'teams'
  | 'users'
  | 'customers'
  | 'settings'
  | 'profile'
  | 'support'
  | 'logout';

/** `/networks` matches `/networks` and `/networks/3/edit`, never `/networksX`. */
const under = (pathname: string, base: string) =>
  pathname === base || pathname.startsWith(`${base}/`);

/**
 * Which sidebar link is highlighted at a location. Users covers the users list, Add User and other
 * people's user pages; Profile is only the signed-in user's own user page.
 */
export function activeNavItem(
  pathname: string,
  search: Record<string, unknown>,
  currentUserId: number,
): NavItemKey | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (path === '/' || path === '') return 'dashboard';
  if (
    ['/virtualMachines', '/virtualMachineDetails', '/virtualMachineConsole'].some((base) =>
      under(path, base),
    ) ||
    path === '/createVirtualMachine'
  )
    return 'virtualMachines';
  if (under(path, '/networks') || path === '/createNetwork') return 'networks';
  if (under(path, '/teams') || path === '/team' || path === '/createEditTeam') return 'teams';
  if (under(path, '/users') || path === '/createUser') return 'users';
  if (path === '/user') return Number(search.id) === currentUserId ? 'profile' : 'users';
  if (under(path, '/customers')) return 'customers';
  if (under(path, '/settings')) return 'settings';
  if (under(path, '/support')) return 'support';
  if (path === '/logout') return 'logout';
  return undefined;
}
