// `npm run build`: the console into dist/ (vite.config.ts), then the server into dist/server/
// (vite.server.config.ts), then the stamp `npm start` compares to decide whether to build again
// (scripts/build/if-changed.js). One process for both builds: Vite starts once. Meanwhile a
// process of its own makes the embedded database's template (pglite-template.js), on the other
// core: it takes about as long as the console's build.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'vite';
import { inputsDigest, root, stampFile } from './inputs.js';

// Before building: a file changed while the build runs makes the stamp differ, and the next
// `npm start` builds again instead of running a build of the old file under the new file's name.
const digest = inputsDigest();

const scratch = mkdtempSync(path.join(tmpdir(), 'launchpad-build-'));
const template = path.join(scratch, 'pglite-template.tar.gz');
const child = spawn(
  process.execPath,
  [path.join(import.meta.dirname, 'pglite-template.js'), template],
  // Its output goes to stderr, as the builds' does when `npm start` builds (if-changed.js).
  { stdio: ['ignore', 2, 2] },
);
const templateMade = new Promise((resolve, reject) => {
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
  copyFileSync(template, path.join(root, 'dist', 'server', 'pglite-template.tar.gz'));
  mkdirSync(path.dirname(stampFile), { recursive: true });
  writeFileSync(stampFile, `${digest}\n`);
} finally {
  // A failed build leaves no process behind.
  if (child.exitCode === null) child.kill();
  rmSync(scratch, { recursive: true, force: true });
}
