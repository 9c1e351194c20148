import { useEffect } from 'react';
import { brandColorCss } from '../api/contract/brand-color';

/**
 * The signed-in console in the reseller's primary colour: a stylesheet after the others (its
 * selector outranks Mantine's own), removed when the signed-in layout goes (sign-out). Called by
 * that layout, so that the colour's rules stay off the sign-in screen's path; on a reseller's
 * domain the server's page already had the colour before sign-in (server/plugins/console-brand.ts).
 */
export function useBrandColor(color: string | null) {
  useEffect(() => {
    if (!color) return;
    const style = document.createElement('style');
    style.dataset.brandColor = color;
    style.textContent = brandColorCss(color);
    document.head.append(style);
    return () => style.remove();
  }, [color]);
}
