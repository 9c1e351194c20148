/**
 * A reseller's primary colour (`#rrggbb`): checked for contrast where it is set, and turned into
 * the console's CSS where it is shown, by the server in the pages it sends for the reseller's
 * domain and by the console after sign-in. Pure, so that both use the same rules.
 */

export const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;
/** WCAG AA for normal text: white on a button, the colour as link text on white and on its tint. */
export const MIN_CONTRAST = 4.5;
/** The lightest tint the colour is drawn on with its own colour as text (Mantine's light-hover). */
const TINT = 0.12;

const channels = (hex: string) =>
  [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255) as [number, number, number];

const luminance = ([r, g, b]: [number, number, number]) => {
  const linear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
};

const ratio = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);

/**
 * The lowest contrast the colour would have in the console: with white (text on buttons, links
 * on cards) and with its own light tint (the text of light badges and buttons), to one decimal
 * rounded down so that "4.5" is never a rounded 4.46.
 */
export function brandContrast(hex: string): number {
  const rgb = channels(hex);
  const tint = rgb.map((c) => c * TINT + (1 - TINT)) as [number, number, number];
  const lowest = Math.min(ratio(luminance(rgb), 1), ratio(luminance(rgb), luminance(tint)));
  return Math.floor(lowest * 10) / 10;
}

export const brandColorMessages = {
  format: 'Primary color must be a hex color such as #1f4fbf',
  contrast: (value: number) =>
    `Primary color needs a contrast of at least ${MIN_CONTRAST}:1 with white; this one has ${value}:1. Choose a darker color.`,
} as const;

/**
 * The console's CSS for the colour: Mantine's variables of the theme's primary colour (indigo,
 * whose shade 7 is the filled one) replaced by shades of it, with a selector that outranks the
 * `:root` rules Mantine writes at run time.
 */
export function brandColorCss(hex: string): string {
  const mix = (percent: number, other: string) =>
    `color-mix(in srgb, ${hex} ${percent}%, ${other})`;
  const shades = [8, 16, 30, 45, 60, 75, 88].map((p) => mix(p, 'white'));
  shades.push(hex, mix(85, 'black'), mix(70, 'black'));
  const variables: Record<string, string> = Object.fromEntries(
    shades.map((value, i) => [`--mantine-color-indigo-${i}`, value]),
  );
  Object.assign(variables, {
    '--mantine-color-indigo-filled': hex,
    '--mantine-color-indigo-filled-hover': shades[8]!,
    '--mantine-color-indigo-light': mix(10, 'transparent'),
    '--mantine-color-indigo-light-hover': mix(TINT * 100, 'transparent'),
    '--mantine-color-indigo-light-color': hex,
    '--mantine-color-indigo-outline': hex,
    '--mantine-color-indigo-outline-hover': mix(5, 'transparent'),
    '--mantine-color-indigo-text': hex,
    '--mantine-color-anchor': hex,
  });
  const body = Object.entries(variables)
    .map(([name, value]) => `${name}:${value}`)
    .join(';');
  return `html:root[data-mantine-color-scheme]{${body}}`;
}
