import { readFileSync } from 'node:fs';
import type { z } from '../../src/api/contract/zod';

/**
 * A provider's JSON configuration file (`variable` names it in messages: `LIBVIRT_CONFIG`),
 * checked against its schema; an unreadable file or each field that does not fit is named.
 */
export function readConfigFile<S extends z.ZodMiniType>(
  variable: string,
  file: string,
  schema: S,
): z.output<S> {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${variable} ${file}: ${error instanceof Error ? error.message : error}`, {
      cause: error,
    });
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`${variable} ${file}: ${problems.join('; ')}`);
  }
  return parsed.data;
}
