// `npm run build`: the console into dist/ (vite.config.ts), then the server into dist/server/
// (vite.server.config.ts), then the stamp `npm start` compares to decide whether to build again
// (scripts/build/start.js). One process for both builds: Vite starts once.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'vite';
import { inputsDigest, root, stampFile } from './inputs.js';

// Before building: a file changed while the build runs makes the stamp differ, and the next
// `npm start` builds again instead of running a build of the old file under the new file's name.
const digest = inputsDigest();
await build({ root, configFile: path.join(root, 'vite.config.ts') });
await build({ root, configFile: path.join(root, 'vite.server.config.ts') });
mkdirSync(path.dirname(stampFile), { recursive: true });
writeFileSync(stampFile, `${digest}\n`);
