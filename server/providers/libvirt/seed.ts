import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ProviderUnavailable } from '../driver';
import { seedFiles, type SeedInput } from '../cloud-init';

const exec = promisify(execFile);

/** The seed as an ISO 9660 volume labelled `cidata`, the NoCloud data source's form. */
export async function seedIso(input: SeedInput): Promise<Buffer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'launchpad-seed-'));
  try {
    const { metaData, userData } = seedFiles(input);
    await writeFile(path.join(dir, 'meta-data'), metaData, { mode: 0o600 });
    await writeFile(path.join(dir, 'user-data'), userData, { mode: 0o600 });
    const iso = path.join(dir, 'seed.iso');
    try {
      await exec('genisoimage', [
        '-quiet',
        '-output',
        iso,
        '-volid',
        'cidata',
        '-joliet',
        '-rock',
        path.join(dir, 'user-data'),
        path.join(dir, 'meta-data'),
      ]);
    } catch (error) {
      throw new ProviderUnavailable(
        `The cloud-init seed could not be made (is genisoimage installed?): ${error instanceof Error ? error.message : error}`,
      );
    }
    return await readFile(iso);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
