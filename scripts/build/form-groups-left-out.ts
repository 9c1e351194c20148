import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

/** The module of TanStack Form's that the stand-in replaces, and who imports it. */
const TARGET = 'useFormGroup.js';
const IMPORTER = 'useForm.js';

/** `@tanstack/react-form`'s ES modules, where its `import` entry lives. */
export function reactFormModules(): string {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve('@tanstack/react-form/package.json');
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as {
    exports: { '.': { import: { default: string } } };
  };
  return path.dirname(path.join(path.dirname(manifest), exports['.'].import.default));
}

/** The names a module exports: `export { a, b as c }` lists and `export const|function|class` declarations. */
export function exportedNames(code: string): string[] {
  const listed = [...code.matchAll(/export\s*\{([^}]*)\}/g)].flatMap((m) =>
    m[1]!.split(',').map((name) =>
      name
        .trim()
        .split(/\s+as\s+/)
        .at(-1)!,
    ),
  );
  const declared = [...code.matchAll(/export\s+(?:const|let|function|class)\s+(\w+)/g)].map(
    (m) => m[1]!,
  );
  return [...listed, ...declared].filter(Boolean);
}

/**
 * TanStack Form's form groups left out of the build: `useForm` hangs `form.FormGroup` on every
 * form, which brings `FormGroupApi` (1.7 KB compressed, in the sign-in screen's first download)
 * though the console never uses it, and the package has no switch for it. The plugin puts the
 * stand-in (`standIn`, which throws if called) in place of `./useFormGroup.js` for TanStack Form's
 * own modules only, and fails the build, rather than let the bytes come back unnoticed or a
 * missing export throw at run time, when the module or its importer is not where it was, when the
 * module exports a name the stand-in lacks, or when nothing imported it.
 */
export function formGroupsLeftOut(standIn: string, modules = reactFormModules()): Plugin {
  const target = path.join(modules, TARGET);
  const importer = path.join(modules, IMPORTER);
  const replacedFor = new Set<string>();
  const moved = (what: string) =>
    `${what}: TanStack Form has moved its form groups. Find where they went and point ` +
    'scripts/build/form-groups-left-out.ts there, or drop the stand-in (the build is 1.7 KB ' +
    'heavier without it).';
  return {
    name: 'launchpad:form-groups-left-out',
    apply: 'build',
    enforce: 'pre',
    buildStart() {
      replacedFor.clear();
      if (!existsSync(target)) this.error(moved(`${target} is missing`));
      if (!existsSync(importer) || !readFileSync(importer, 'utf8').includes(`"./${TARGET}"`)) {
        this.error(moved(`${importer} no longer imports ./${TARGET}`));
      }
      const ours = new Set(exportedNames(readFileSync(standIn, 'utf8')));
      const lacking = exportedNames(readFileSync(target, 'utf8')).filter((n) => !ours.has(n));
      if (lacking.length > 0) {
        this.error(moved(`${target} now exports ${lacking.join(', ')}, which the stand-in lacks`));
      }
    },
    resolveId(source, from) {
      if (source !== `./${TARGET}` || !from || path.dirname(from) !== modules) return null;
      replacedFor.add(from);
      return standIn;
    },
    buildEnd(error) {
      if (!error && !replacedFor.has(importer)) {
        this.error(moved(`${importer} was never built with the stand-in`));
      }
    },
  };
}
