import path from 'node:path';
import type { Plugin, Rollup } from 'vite';

const ENTRY_MODULE = path.resolve(import.meta.dirname, '../../src/main.tsx');
/** The module the entry imports, after a turn of the event loop, to start the console. */
export const START_MODULE = path.resolve(import.meta.dirname, '../../src/boot/start-console.tsx');

/**
 * The console's start comes in two files, both named by the page so that they download side by
 * side: the entry (`initial`: the session check, sent as soon as it has run) and `start`, which
 * the entry reaches through `import()` in a task of its own (the router, the sign-in screen and
 * what every first screen draws). `start` is an input of the build of its own, so that the
 * `$initial` tag groups what it needs; the entry's modules are told apart here from the module
 * graph once it is loaded. `start`'s stylesheet is linked by the page, as the entry's is, so that
 * the sign-in card drawn at build paints before any code has run.
 */
export function consoleStart() {
  const entryModules = new Set<string>();
  const plugin: Plugin = {
    name: 'launchpad:console-start',
    apply: 'build',
    buildEnd(error) {
      if (error) return;
      const visit = (id: string) => {
        // Not loaded: a re-export of a barrel module nothing uses (rolldown's lazy barrels).
        const info = this.getModuleInfo(id);
        if (entryModules.has(id) || !info) return;
        entryModules.add(id);
        info.importedIds.forEach(visit);
      };
      visit(ENTRY_MODULE);
      if (entryModules.has(START_MODULE))
        this.error(`${ENTRY_MODULE} imports the start statically`);
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle, chunk }) {
        // Only the console's page (not noVNC's).
        if (!bundle || !chunk?.facadeModuleId?.endsWith('index.html')) return html;
        const files = startFiles(bundle, chunk);
        const styles = files.flatMap((file) => [...(file.viteMetadata?.importedCss ?? [])]);
        return {
          html,
          tags: [
            ...styles.map((href) => ({
              tag: 'link',
              attrs: { rel: 'stylesheet', crossorigin: true, href: `./${href}` },
              injectTo: 'head' as const,
            })),
            ...files.map((file) => ({
              tag: 'link',
              attrs: { rel: 'modulepreload', crossorigin: true, href: `./${file.fileName}` },
              injectTo: 'head' as const,
            })),
          ],
        };
      },
    },
  };
  return {
    plugin,
    /** Whether the entry imports a module statically (and so needs it before it runs). */
    inEntry: (id: string) => entryModules.has(id),
  };
}

/**
 * The files of the console's start that the entry does not load itself: the start's own chunk (a
 * facade, when its module is in a group's chunk) and what it imports.
 */
export function startFiles(
  bundle: Rollup.OutputBundle,
  entry: Rollup.OutputChunk,
): Rollup.OutputChunk[] {
  const chunks = new Map(
    Object.values(bundle)
      .filter((output): output is Rollup.OutputChunk => output.type === 'chunk')
      .map((output) => [output.fileName, output]),
  );
  const closure = (start: Rollup.OutputChunk | undefined, seen = new Set<Rollup.OutputChunk>()) => {
    if (!start || seen.has(start)) return seen;
    seen.add(start);
    for (const name of start.imports) closure(chunks.get(name), seen);
    return seen;
  };
  const start = [...chunks.values()].find((chunk) => chunk.facadeModuleId === START_MODULE);
  if (!start) throw new Error(`no chunk starts with ${START_MODULE}`);
  const loadedByTheEntry = closure(entry);
  return [...closure(start)].filter((chunk) => !loadedByTheEntry.has(chunk));
}
