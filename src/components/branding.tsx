import { Image, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { User } from '../api/contract/auth';
import type { HostBrand } from '../api/contract/reseller-settings';
import { APP_TITLE, appTitle } from './app-title';

/** The tab icon when no reseller icon is known: a plain white circle (as in index.html). */
export const DEFAULT_TAB_ICON =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Ccircle cx='8' cy='8' r='7' fill='white' stroke='%23ccc'/%3E%3C/svg%3E";

type Branding = Pick<User, 'resellerName' | 'tabLogoUrl'>;

/**
 * The brand the server wrote into the page on a reseller's domain (contract `hostBrand`), else
 * null; read without the contract's schema, which is kept off the sign-in screen's path.
 */
export const hostBrand = (): HostBrand | null =>
  JSON.parse(
    globalThis.document?.querySelector<HTMLMetaElement>('meta[name=launchpad-brand]')?.content ??
      'null',
  ) as HostBrand | null;

function setTabIcon(href: string) {
  let link = document.querySelector<HTMLLinkElement>('link#tab-icon');
  if (!link) {
    link = document.createElement('link');
    link.id = 'tab-icon';
    link.rel = 'icon';
    document.head.appendChild(link);
  }
  link.href = href;
}

/**
 * The browser tab shows the signed-in user's reseller: its name as the title and its icon. Leaving
 * the signed-in area puts the product defaults back.
 */
export function useBranding(user: Branding) {
  const { resellerName, tabLogoUrl } = user;
  useEffect(() => {
    document.title = appTitle(resellerName);
    setTabIcon(tabLogoUrl || DEFAULT_TAB_ICON);
  }, [resellerName, tabLogoUrl]);
  useEffect(
    () => () => {
      document.title = APP_TITLE;
      setTabIcon(DEFAULT_TAB_ICON);
    },
    [],
  );
}

/**
 * The logo at the top of the sidebar: the company logo (the server falls back to the reseller's),
 * else, or when the image cannot be loaded, the reseller's name, else ours.
 */
export function BrandLogo({
  user,
  compact = false,
}: {
  user: Pick<User, 'logoUrl' | 'resellerName'>;
  compact?: boolean;
}) {
  const name = appTitle(user.resellerName);
  // Remembered per address, so a new logo gets its own chance.
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  if (user.logoUrl && user.logoUrl !== failedUrl)
    return (
      <Image
        src={user.logoUrl}
        alt={name}
        h={compact ? 32 : 36}
        w={compact ? 32 : 'auto'}
        maw={compact ? 32 : 180}
        fit="contain"
        onError={() => setFailedUrl(user.logoUrl)}
      />
    );
  if (compact)
    return (
      <Text fw={800} fz="lg" c="var(--mantine-primary-color-filled)" aria-label={name}>
        {name.charAt(0).toUpperCase()}
      </Text>
    );
  return (
    <Text fw={800} fz="lg" lh={1.2} lineClamp={1} c="var(--mantine-primary-color-filled)">
      {name}
    </Text>
  );
}
