/** The product name: the browser tab title and logo when no reseller branding is known. */
export const APP_TITLE = 'Launchpad';

/** The tab title: the reseller's name, else the product name (spec section 1). */
export const appTitle = (resellerName?: string | null): string => resellerName?.trim() || APP_TITLE;
