/*
 * Mantine's global styles and the toasts'. Each component's own stylesheet comes with its code
 * (scripts/build/mantine-styles-with-components.ts), so a screen downloads the styles of what it
 * draws. All in Mantine's `mantine` cascade layer, below our own rules.
 */
import '@mantine/core/styles/baseline.layer.css';
import '@mantine/core/styles/default-css-variables.layer.css';
import '@mantine/core/styles/global.layer.css';
import '@mantine/notifications/styles.layer.css';
