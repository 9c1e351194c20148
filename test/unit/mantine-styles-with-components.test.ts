import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mantineStylesWithComponents } from '../../scripts/build/mantine-styles-with-components';

const core = path.resolve(import.meta.dirname, '../../node_modules/@mantine/core');

/** Every Mantine class names module: `esm/…/Name.module.mjs`. */
function classModules(dir = path.join(core, 'esm')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return classModules(full);
    return entry.name.endsWith('.module.mjs') ? [full] : [];
  });
}

const transform = (code: string, id: string) => {
  const hook = mantineStylesWithComponents().transform as (
    code: string,
    id: string,
  ) => { code: string } | null;
  return hook(code, id);
};

describe('each Mantine component brings its own stylesheet', () => {
  it('imports the stylesheet named after the component into its class names module', () => {
    const id = path.join(core, 'esm/components/Button/Button.module.mjs');
    expect(transform('export default {};', id)?.code).toBe(
      "import '@mantine/core/styles/Button.layer.css';\nexport default {};",
    );
  });

  it('also for the components under utils (the checkbox label’s InlineInput)', () => {
    const id = path.join(core, 'esm/utils/InlineInput/InlineInput.module.mjs');
    expect(transform('', id)?.code).toContain(
      "import '@mantine/core/styles/InlineInput.layer.css';",
    );
  });

  it('leaves every other module as it is', () => {
    expect(transform('x', path.join(core, 'esm/components/Button/Button.mjs'))).toBeNull();
    expect(transform('x', '/work/src/components/data-table/data-table.module.css')).toBeNull();
  });

  // A Mantine release that renamed a stylesheet would leave its component unstyled: caught here.
  it('finds a stylesheet for every component of the installed Mantine', () => {
    const modules = classModules();
    expect(modules.length).toBeGreaterThan(90);
    const missing = modules
      .map((file) => path.basename(file, '.module.mjs'))
      .filter((name) => !existsSync(path.join(core, `styles/${name}.layer.css`)));
    expect(missing).toEqual([]);
  });
});
