import {
  ActionIcon,
  AppShell,
  Avatar,
  Box,
  Group,
  NavLink,
  ScrollArea,
  Stack,
  Text,
  Tooltip,
  type NavLinkProps,
} from '@mantine/core';
import {
  IconBuildings,
  IconLayoutDashboard,
  IconLayoutSidebarLeftCollapse,
  IconLayoutSidebarLeftExpand,
  IconLifebuoy,
  IconLogout,
  IconNetwork,
  IconServer,
  IconSettings,
  IconUserCircle,
  IconUsers,
  IconUsersGroup,
  type Icon,
} from '@tabler/icons-react';
import { createLink, linkOptions, useLocation } from '@tanstack/react-router';
import type { AnchorHTMLAttributes, Ref } from 'react';
import type { User } from '../api/contract/auth';
import { BrandLogo } from './branding';
import { activeNavItem, type NavItemKey } from './nav-highlight';
import { fullName, initials } from './user-name';

type NavAnchorProps = NavLinkProps &
  Omit<AnchorHTMLAttributes<HTMLAnchorElement>, keyof NavLinkProps> & {
    ref?: Ref<HTMLAnchorElement>;
  };

/**
 * Mantine's NavLink as a router link. The router marks links active by its own matching; the
 * sidebar's rules differ (Users vs Profile on /user), so only `active` decides aria-current.
 */
function NavAnchor({ active, ...props }: NavAnchorProps) {
  return (
    <NavLink
      component="a"
      {...props}
      active={active}
      aria-current={active ? 'page' : undefined}
      data-status={undefined}
    />
  );
}
const RouterNavLink = createLink(NavAnchor);

type NavItem = { key: NavItemKey; label: string; icon: Icon; link: object };

const navItems = (user: User) =>
  [
    {
      key: 'dashboard',
      label: 'Dashboard',
      icon: IconLayoutDashboard,
      link: linkOptions({ to: '/' }),
    },
    {
      key: 'virtualMachines',
      label: 'Virtual Machines',
      icon: IconServer,
      link: linkOptions({ to: '/virtualMachines' }),
    },
    {
      key: 'networks',
      label: 'Networks',
      icon: IconNetwork,
      link: linkOptions({ to: '/networks' }),
    },
    { key: 'teams', label: 'Teams', icon: IconUsersGroup, link: linkOptions({ to: '/teams' }) },
    { key: 'users', label: 'Users', icon: IconUsers, link: linkOptions({ to: '/users' }) },
    // A reseller's staff look after their customers' companies; nobody else has any.
    ...(user.isReseller
      ? [
          {
            key: 'customers',
            label: 'Customers',
            icon: IconBuildings,
            link: linkOptions({ to: '/customers' }),
          } satisfies NavItem,
        ]
      : []),
    {
      key: 'settings',
      label: 'Settings',
      icon: IconSettings,
      link: linkOptions({ to: '/settings' }),
    },
    {
      key: 'profile',
      label: 'Profile',
      icon: IconUserCircle,
      link: linkOptions({ to: '/user', search: { id: user.id } }),
    },
    { key: 'support', label: 'Support', icon: IconLifebuoy, link: linkOptions({ to: '/support' }) },
    { key: 'logout', label: 'Logout', icon: IconLogout, link: linkOptions({ to: '/logout' }) },
  ] satisfies NavItem[];

interface SidebarProps {
  user: User;
  /** Icons only, titles as tooltips; name and company hidden. */
  compact: boolean;
  /** Desktop only: the collapse toggle (absent in the mobile menu). */
  onToggleCollapse?: () => void;
  /** A link was chosen (closes the mobile menu). */
  onNavigate: () => void;
  /** The mobile header already shows the logo. */
  withLogo: boolean;
}

export function Sidebar({ user, compact, onToggleCollapse, onNavigate, withLogo }: SidebarProps) {
  const location = useLocation();
  const active = activeNavItem(
    location.pathname,
    location.search as Record<string, unknown>,
    user.id,
  );
  const ToggleIcon = compact ? IconLayoutSidebarLeftExpand : IconLayoutSidebarLeftCollapse;

  return (
    <>
      {(withLogo || onToggleCollapse) && (
        <AppShell.Section px={compact ? 0 : 'md'} py="md">
          <Group
            justify={compact ? 'center' : 'space-between'}
            gap="xs"
            wrap="nowrap"
            h={compact ? undefined : 36}
            style={{ flexDirection: compact ? 'column' : 'row' }}
          >
            {withLogo && <BrandLogo user={user} compact={compact} />}
            {onToggleCollapse && (
              <Tooltip label={compact ? 'Expand sidebar' : 'Collapse sidebar'} position="right">
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  onClick={onToggleCollapse}
                  aria-label={compact ? 'Expand sidebar' : 'Collapse sidebar'}
                >
                  <ToggleIcon size={20} stroke={1.6} aria-hidden />
                </ActionIcon>
              </Tooltip>
            )}
          </Group>
        </AppShell.Section>
      )}

      <AppShell.Section grow component={ScrollArea} px={compact ? 'xs' : 'sm'} py="xs">
        <Box component="nav" aria-label="Main">
          <Stack gap={4}>
            {navItems(user).map((item) => {
              const isActive = active === item.key;
              const Icon = item.icon;
              const link = (
                <RouterNavLink
                  {...item.link}
                  label={compact ? undefined : item.label}
                  aria-label={compact ? item.label : undefined}
                  leftSection={<Icon size={20} stroke={1.6} aria-hidden />}
                  active={isActive}
                  onClick={onNavigate}
                  variant="light"
                  styles={{
                    root: {
                      borderRadius: 'var(--mantine-radius-md)',
                      justifyContent: compact ? 'center' : undefined,
                      paddingInline: compact ? 0 : undefined,
                      height: 40,
                    },
                    section: compact ? { marginInlineEnd: 0 } : undefined,
                    label: { fontWeight: isActive ? 600 : 500 },
                    body: compact ? { display: 'none' } : undefined,
                  }}
                />
              );
              return compact ? (
                <Tooltip key={item.key} label={item.label} position="right" withArrow>
                  {link}
                </Tooltip>
              ) : (
                <Box key={item.key}>{link}</Box>
              );
            })}
          </Stack>
        </Box>
      </AppShell.Section>

      <AppShell.Section
        p={compact ? 'xs' : 'md'}
        style={{ borderTop: '1px solid var(--app-shell-border-color)' }}
      >
        <Group gap="sm" wrap="nowrap" justify={compact ? 'center' : 'flex-start'}>
          <Avatar color="initials" name={fullName(user)} radius="xl" size={compact ? 32 : 36}>
            {initials(user)}
          </Avatar>
          {!compact && (
            <Box miw={0}>
              <Text size="sm" fw={600} truncate="end">
                {fullName(user)}
              </Text>
              <Text size="xs" c="dimmed" truncate="end">
                {user.companyName}
              </Text>
            </Box>
          )}
        </Group>
      </AppShell.Section>
    </>
  );
}
