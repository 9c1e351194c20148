import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import { build, type Plugin } from 'vite';
import { SESSION_STORED } from './first-screen-preload.ts';

const EMPTY_ROOT = '<div id="root"></div>';

/**
 * Draws the card in one piece, once the page has it all (a card drawn while the page is still
 * being parsed would move as it grows, centred as it is), unless a session is stored: that may
 * carry a reseller's logo, and mostly goes on to the one-time code page. Plain script, run as the
 * page is parsed.
 */
const DRAW_UNLESS_SESSION_STORED = `try {
  if (!${SESSION_STORED})
    document.getElementById('root').append(document.getElementById('login-card').content);
} catch (storageRefused) {}`;

/**
 * The page the server sends for `/login`: `index.html` with the sign-in screen already drawn in
 * it, as React draws it for a visitor with no stored session (`login-card.tsx`), so that a phone
 * shows the card as soon as the page and its stylesheet have arrived rather than once the
 * console's code has downloaded and run. Until the console replaces it the card is inert, and its
 * inputs read-only: nothing can be typed into it that the console would then drop. The inline
 * script is allowed by its hash, as index.html's are (`inlineScriptSources`). index.html names
 * the colour scheme on <html>, as Mantine does once started, so the card paints in its colours.
 */
export function loginPage(): Plugin {
  let root = '';
  let outDir = 'dist';
  let failed = false;
  return {
    name: 'launchpad:login-page',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
    },
    buildEnd(error) {
      failed = error !== undefined;
    },
    async closeBundle(error) {
      // A failed build wrote no page to draw into: its own error is the one to show.
      if (failed || error) return;
      const index = readFileSync(path.join(outDir, 'index.html'), 'utf8');
      if (!index.includes(EMPTY_ROOT)) throw new Error(`index.html has no ${EMPTY_ROOT}`);
      const card = inertCard(await renderCard(root));
      writeFileSync(
        path.join(outDir, 'login.html'),
        index.replace(
          EMPTY_ROOT,
          `${EMPTY_ROOT}\n    <template id="login-card">${card}</template>\n    <script>${DRAW_UNLESS_SESSION_STORED}</script>`,
        ),
      );
    },
  };
}

/**
 * Renders the card with the console's own components, bundled for Node by a build of its own
 * (about twice as fast as loading it through a Vite dev server's SSR, which transforms module by
 * module). The bundle lands under node_modules so that its imports of packages resolve.
 */
async function renderCard(root: string): Promise<string> {
  const outDir = path.join(root, 'node_modules/.cache/launchpad-login-card');
  try {
    await build({
      root,
      configFile: false,
      plugins: [react()],
      publicDir: false,
      logLevel: 'error',
      build: {
        ssr: path.join(root, 'scripts/build/login-card.tsx'),
        outDir,
        emptyOutDir: true,
        minify: false,
        reportCompressedSize: false,
        rolldownOptions: { output: { entryFileNames: 'login-card.mjs' } },
      },
    });
    const { renderLoginCard } = (await import(
      pathToFileURL(path.join(outDir, 'login-card.mjs')).href
    )) as { renderLoginCard: () => Promise<string> };
    return await renderLoginCard();
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** The drawn card, inert and with read-only inputs; a card without its <main> is refused. */
export function inertCard(card: string): string {
  const inert = card
    .replace(/<main /, '<main inert="" ')
    .replace(/<input /g, '<input readonly="" ');
  if (!inert.includes('<main inert="" ')) throw new Error('the sign-in card has no <main>');
  return inert;
}
