import { createTheme, type CSSVariablesResolver } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'indigo',
  // Shade 6 on white (links) and white on shade 6 (buttons) fall short of WCAG AA's 4.5:1.
  primaryShade: { light: 7, dark: 8 },
  defaultRadius: 'md',
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  components: {
    Tooltip: { defaultProps: { openDelay: 700 } },
  },
});

/** Dimmed text in gray 6 on white is 3.3:1, short of WCAG AA's 4.5:1: gray 7 instead. */
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: { '--mantine-color-dimmed': t.colors.gray[7]! },
  dark: {},
});
