import { describe, expect, it } from 'vitest';
import firstScreenStyles from '../../src/styles/first-screens.ts?raw';

/**
 * The first download carries Mantine's styles only for what the sign-in screens draw
 * (src/styles/first-screens.ts); a component added to one of them without its stylesheet would
 * show unstyled until after sign-in.
 */

/** The modules drawn before sign-in: the public screens and the components they share. */
const firstScreenSources = import.meta.glob<string>(
  [
    '/src/routes/-components/*.tsx',
    '/src/components/{auth-card,branding,form,new-password-fields,password-checklist}.tsx',
    '/src/components/{error-screen,toast-stack}.tsx',
  ],
  { query: '?raw', import: 'default', eager: true },
);

/** Mantine's components that have a stylesheet of their own. */
const styled = new Set(
  Object.keys(import.meta.glob('/node_modules/@mantine/core/styles/*.layer.css')).map((file) =>
    file.split('/').pop()!.replace('.layer.css', ''),
  ),
);

const mantineComponentsOf = (source: string) =>
  [...source.matchAll(/import \{([^}]*)\} from '@mantine\/core'/g)].flatMap((m) =>
    m[1]!
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name && !name.startsWith('type ')),
  );

describe('the first screens’ styles', () => {
  it('include the stylesheet of every Mantine component the sign-in screens use', () => {
    expect(Object.keys(firstScreenSources).length).toBeGreaterThan(10);
    const missing = Object.values(firstScreenSources)
      .flatMap(mantineComponentsOf)
      .filter((name) => styled.has(name))
      .filter((name) => !firstScreenStyles.includes(`/styles/${name}.layer.css'`));
    expect([...new Set(missing)]).toEqual([]);
  });
});
