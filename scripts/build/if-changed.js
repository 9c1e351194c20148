// Before `npm start` and `npm run import`: builds only when needed, so that a restart with an
// unchanged build goes straight to the server. Needed means no complete build in dist/ (the
// console's index.html, the server's main.js, and the stamp the build writes last), or a build
// from other inputs: the build hashes its inputs (the sources, the build's configuration,
// package-lock.json; the list is in inputs.js) into dist/server/build-inputs.sha256, and this
// hashes them again and compares. A hash rather than modification times: a checkout that changes
// no file's content builds nothing, and an edit reverted builds nothing either.
// Where there are no sources (an image or a copy of dist/ with the production dependencies, and
// no Vite to build with), what is built is what runs.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { builtDigest, hasBuild, inputsDigest, root } from './inputs.js';

const haveSources = existsSync(path.join(root, 'server', 'main.ts'));
if (!haveSources && !hasBuild()) {
  console.error('No build in dist/ and no sources to build it from.');
  process.exit(1);
}
const built = builtDigest();
if (haveSources && built !== inputsDigest()) {
  console.error(
    built ? 'The sources changed since the last build: building.' : 'No build yet: building.',
  );
  // A process of its own, whose stdout is this one's stderr: stdout is for what runs next (the
  // server's JSON log, the import's result), and Vite's report of the build goes to stderr.
  // Vite is a devDependency: only a build needs it. No PGlite template (build.js says why).
  const build = spawnSync(
    process.execPath,
    [path.join(import.meta.dirname, 'build.js'), '--no-template'],
    { stdio: ['ignore', 2, 2] },
  );
  if (build.status !== 0) process.exit(build.status ?? 1);
}
