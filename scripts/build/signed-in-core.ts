import path from 'node:path';
import type { Plugin, Rollup } from 'vite';

type ModuleInfo = Rollup.ModuleInfo;

const SRC = path.resolve(import.meta.dirname, '../../src');
/** A route's split module: `src/routes/_app/virtualMachines.tsx?tsr-split=component---loader`. */
const ROUTE_SPLIT = /^(.+)\.tsx\?tsr-split=(.+)$/;

/**
 * The screens most visits draw after sign-in, so that what they share downloads and runs as one
 * file without the code only the other screens need (the forms' toolkit, dialogs, steppers,
 * passkeys): the signed-in layout, the Dashboard and the lists.
 */
const CORE_ROUTES = [
  '_app',
  '_app/index',
  '_app/virtualMachines',
  '_app/networks/index',
  '_app/teams',
  '_app/users',
].map((route) => path.join(SRC, 'routes', route));
/** The toasts' outlet, which every screen loads once the browser is idle. */
const TOAST_STACK = path.join(SRC, 'components/toast-stack.tsx');

/**
 * Tells the modules that the core screens import statically (their component and loader, not
 * their error screens) from the rest, once the module graph is loaded, for the build's groups.
 */
export function signedInCore() {
  const core = new Set<string>();
  const plugin: Plugin = {
    name: 'launchpad:signed-in-core',
    apply: 'build',
    buildEnd(error) {
      if (error) return;
      const barrels = new Map<string, Map<string, string> | null>();
      const barrelOf = (id: string) => {
        if (!barrels.has(id)) barrels.set(id, reExports(this.getModuleInfo(id)));
        return barrels.get(id);
      };
      const visit = (id: string) => {
        // Not loaded: a re-export of a barrel module nothing uses (rolldown's lazy barrels).
        const info = this.getModuleInfo(id);
        if (core.has(id) || !info) return;
        core.add(id);
        for (const imported of info.importedIds) {
          // Through a library's index, only the modules of the names this one imports: the
          // index imports every component that any screen uses.
          const modules = barrelOf(imported);
          const names = modules && namesImported(info.code, imported);
          if (!modules || !names) visit(imported);
          else for (const name of names) visit(modules.get(name) ?? imported);
        }
      };
      for (const id of this.getModuleIds()) {
        const [, file, parts] = ROUTE_SPLIT.exec(id) ?? [];
        if (!file || !parts || !CORE_ROUTES.includes(file)) continue;
        if (parts.split('---').some((part) => part === 'component' || part === 'loader')) visit(id);
      }
      visit(TOAST_STACK);
      if (core.size === 0) this.error('no module of the signed-in core screens was found');
    },
  };
  return {
    plugin,
    /** Whether a core screen needs a module to draw. */
    inCore: (id: string) => core.has(id),
  };
}

/**
 * An index module's re-exports (`import { X } from "./x.mjs"` lines and one `export { … }`), as
 * the module each exported name comes from; null for any other module.
 */
export function reExports(info: ModuleInfo | null): Map<string, string> | null {
  if (!info?.code || !info.id.includes('node_modules')) return null;
  const statements = info.code.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '').split(';');
  const modules = new Map<string, string>();
  for (const statement of statements.map((s) => s.trim()).filter(Boolean)) {
    const imported = /^import \{([^}]*)\} from "([^"]+)"$/.exec(statement);
    if (imported) {
      const from = moduleOf(info, imported[2]!);
      if (!from) return null;
      for (const binding of bindings(imported[1]!)) modules.set(binding.local, from);
    } else if (!/^export \{[^}]*\}$/.test(statement)) return null;
  }
  // Exported under another name (`transitions as MANTINE_TRANSITIONS`).
  const exported = /export \{([^}]*)\}/.exec(info.code)?.[1] ?? '';
  for (const binding of bindings(exported)) {
    const from = modules.get(binding.imported);
    if (from) modules.set(binding.local, from);
  }
  return modules;
}

/** The module an import of an index names: a file beside it, or another package. */
function moduleOf(index: ModuleInfo, specifier: string) {
  if (specifier.startsWith('.')) return path.resolve(path.dirname(index.id), specifier);
  return index.importedIds.find((id) =>
    id.replace(/\\/g, '/').includes(`/node_modules/${specifier}/`),
  );
}

/** The names a module imports from a package's index; null when it cannot tell (`import *`). */
export function namesImported(code: string | null, indexId: string): string[] | null {
  const pkg = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/
    .exec(indexId)?.[1]
    ?.replace(/\\/g, '/');
  if (!code || !pkg) return null;
  const names: string[] = [];
  for (const statement of code.matchAll(/import\s*([^;]*?)\s*from\s*["']([^"']+)["']/g)) {
    if (statement[2] !== pkg) continue;
    const named = /^\{([^}]*)\}$/.exec(statement[1]!.trim());
    if (!named) return null;
    names.push(...bindings(named[1]!).map((binding) => binding.imported));
  }
  return names.length > 0 ? names : null;
}

/** `A, B as C` → A (imported as A), B (as C). */
function bindings(list: string) {
  return list
    .split(',')
    .map((binding) => binding.trim().replace(/^type\s+/, ''))
    .filter(Boolean)
    .map((binding) => {
      const [imported, local = imported] = binding.split(/\s+as\s+/);
      return { imported: imported!, local: local! };
    });
}
