// `npm run build`: the console into dist/ (vite.config.ts), then the server into dist/server/
// (vite.server.config.ts), then the stamp `npm start` compares to decide whether to build again
// (scripts/build/if-changed.js). One process for both builds: Vite starts once. Meanwhile a
// process of its own makes the embedded database's template (pglite-template.js), so that a
// server of this build starts an empty PGlite folder without initdb (an image's first start,
// every fresh folder after). `--no-template` leaves it out: `npm start`'s own build does, since
// the one start that follows would run initdb just once either way, and on two cores the
// template's seconds of CPU beside the console's build delay its first answer.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'vite';
import { inputsDigest, root, stampFile } from './inputs.js';

// Before building: a file changed while the build runs makes the stamp differ, and the next
// `npm start` builds again instead of running a build of the old file under the new file's name.
const digest = inputsDigest();
const withTemplate = !process.argv.includes('--no-template');

const scratch = mkdtempSync(path.join(tmpdir(), 'launchpad-build-'));
const template = path.join(scratch, 'pglite-template.tar.gz');
const child = withTemplate
  ? spawn(
      process.execPath,
      [path.join(import.meta.dirname, 'pglite-template.js'), template],
      // Its output goes to stderr, as the builds' does when `npm start` builds (if-changed.js).
      { stdio: ['ignore', 2, 2] },
    )
  : undefined;
const templateMade = new Promise((resolve, reject) => {
  if (!child) return resolve(undefined);
  child.once('error', reject);
  child.once('exit', (code) =>
    code === 0 ? resolve(undefined) : reject(new Error(`pglite-template.js exited with ${code}`)),
  );
});
// Awaited below; until then a failure is not an unhandled rejection.
templateMade.catch(() => {});

try {
  await build({ root, configFile: path.join(root, 'vite.config.ts') });
  await build({ root, configFile: path.join(root, 'vite.server.config.ts') });
  await templateMade;
  if (child) copyFileSync(template, path.join(root, 'dist', 'server', 'pglite-template.tar.gz'));
  mkdirSync(path.dirname(stampFile), { recursive: true });
  writeFileSync(stampFile, `${digest}\n`);
} finally {
  // A failed build leaves no process behind.
  if (child && child.exitCode === null) child.kill();
  rmSync(scratch, { recursive: true, force: true });
}
