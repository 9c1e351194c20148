import type { Plugin } from 'vite';

/** A Mantine component's class names module: `@mantine/core/esm/components/Button/Button.module.mjs`. */
const CLASSES_MODULE = /[\\/]@mantine[\\/]core[\\/]esm[\\/].*[\\/](\w+)\.module\.mjs$/;

/**
 * Each Mantine component brings its own stylesheet (`@mantine/core/styles/<Name>.layer.css`), as
 * a CSS module would: the build puts it in the same file as the component's code, so a screen
 * downloads the styles of what it draws and no more, instead of Mantine's whole stylesheet.
 * Dependencies are imported before their dependents, so their rules come first, in the order
 * Mantine's documentation asks for. The global styles stay in `src/styles/global.ts`.
 */
export function mantineStylesWithComponents(): Plugin {
  return {
    name: 'launchpad:mantine-styles-with-components',
    transform(code, id) {
      const name = CLASSES_MODULE.exec(id)?.[1];
      if (!name) return null;
      return { code: `import '@mantine/core/styles/${name}.layer.css';\n${code}`, map: null };
    },
  };
}
