import { AppShell, Box, Burger, Group, Tooltip } from '@mantine/core';
import { useLocalStorage, useMediaQuery } from '@mantine/hooks';
import { useEffect, useState, type ReactNode } from 'react';
import type { User } from '../api/contract/auth';
import { LiveIndicator } from '../live/live-indicator';
import { useBrandColor } from './brand-color-style';
import { BrandLogo, useBranding } from './branding';
import { LoadingBar } from './loading-bar';
import { Sidebar } from './sidebar';
import { preloadToastsWhenIdle } from './toasts';

/** At this width and above the sidebar is docked; below it is a menu behind the burger. */
export const DESKTOP_MIN_WIDTH = 1024;
export const DESKTOP_QUERY = `(min-width: ${DESKTOP_MIN_WIDTH}px)`;
export const SIDEBAR_WIDTH = 256;
export const SIDEBAR_COLLAPSED_WIDTH = 64;
export const SIDEBAR_COLLAPSED_KEY = 'sidebar-collapsed';
const HEADER_HEIGHT = 56;

/**
 * The signed-in layout: sidebar (collapsible on desktop, a burger menu on small screens), the
 * request loading bar, branding of the tab and the reseller's primary colour, and the page.
 */
export function AppLayout({ user, children }: { user: User; children: ReactNode }) {
  useBranding(user);
  useBrandColor(user.primaryColor);
  // Signed in, toasts are near: their outlet loads once the screen is drawn and the browser idle,
  // rather than with the first toast (or before the screen, competing with its code and data).
  useEffect(preloadToastsWhenIdle, []);
  const isDesktop = useMediaQuery(DESKTOP_QUERY, false, { getInitialValueInEffect: false });
  const [collapsed, setCollapsed] = useLocalStorage<boolean>({
    key: SIDEBAR_COLLAPSED_KEY,
    defaultValue: false,
    getInitialValueInEffect: false,
    serialize: (value) => String(value),
    deserialize: (value) => value === 'true',
  });
  const [mobileOpened, setMobileOpened] = useState(false);
  // Growing past the breakpoint docks the sidebar: the mobile menu must not reopen later.
  if (isDesktop && mobileOpened) setMobileOpened(false);
  // Behind the burger, the menu is drawn when first opened, then kept: a phone draws its first
  // screen sooner without it.
  const [sidebarDrawn, setSidebarDrawn] = useState(isDesktop);
  if ((isDesktop || mobileOpened) && !sidebarDrawn) setSidebarDrawn(true);
  const compact = isDesktop && collapsed;

  return (
    <Tooltip.Group openDelay={700} closeDelay={300}>
      <LoadingBar />
      <LiveIndicator />
      <AppShell
        header={{ height: HEADER_HEIGHT, collapsed: isDesktop }}
        navbar={{
          width: compact ? SIDEBAR_COLLAPSED_WIDTH : SIDEBAR_WIDTH,
          // Mantine's max-width media query includes its bound; stay just below 1024 px so that
          // 1024 px itself is desktop.
          breakpoint: DESKTOP_MIN_WIDTH - 0.02,
          collapsed: { mobile: !mobileOpened },
        }}
        padding={{ base: 'md', sm: 'xl' }}
        bg="var(--mantine-color-gray-0)"
      >
        {!isDesktop && (
          <AppShell.Header>
            <Group h="100%" px="md" gap="sm" wrap="nowrap">
              <Burger
                opened={mobileOpened}
                onClick={() => setMobileOpened((open) => !open)}
                size="sm"
                aria-label="Toggle navigation"
                aria-expanded={mobileOpened}
              />
              <BrandLogo user={user} />
            </Group>
          </AppShell.Header>
        )}
        <AppShell.Navbar>
          {sidebarDrawn && (
            <Sidebar
              user={user}
              compact={compact}
              withLogo={isDesktop}
              onToggleCollapse={isDesktop ? () => setCollapsed((value) => !value) : undefined}
              onNavigate={() => setMobileOpened(false)}
            />
          )}
        </AppShell.Navbar>
        <AppShell.Main>
          <Box maw={1400} mx="auto">
            {children}
          </Box>
        </AppShell.Main>
      </AppShell>
    </Tooltip.Group>
  );
}
